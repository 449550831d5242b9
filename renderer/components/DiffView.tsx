import { MergeView, unifiedMergeView, type DiffConfig } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { splitLines } from '../../shared/diff/splitLines.js';
import { diffLineLists, type TextDiff } from '../../shared/diff/textDiff.js';
import { diffExtensions, readOnlyExtensions } from './codeMirrorSetup.js';
import { DiffHeader } from './DiffHeader.js';
import { blockActions, type BlockAction } from './blockActions.js';
import { editorChanges } from './diffChanges.js';
import { shadowContainer, useDarkScheme } from './shadowMount.js';

// Two texts compared, side by side (MergeView) or inline (the unified view). The line diff is
// computed once per pair of texts and everything reads it: the views (through their diff
// override, so they do not diff again), the +/- counts, and next/previous change, which steps
// through the hunks `diff -u` would print. Unchanged runs are collapsed so the changes are what
// the eye lands on.

interface DiffViewProps {
  path: string;
  before: string;
  after: string;
  layout: 'side' | 'inline';
  beforeLabel: string;
  afterLabel: string;
  /** An action above each changed block on the after side ("Restore this change"). */
  blockAction?: BlockAction;
}

const collapse = { margin: 3, minSize: 4 };

/**
 * The block a block action wrote back, until the diff of the texts after it is drawn: that view
 * opens at the block instead of at line 1. Kept outside the component, which the refresh between
 * the click and the new texts may unmount ("Comparing…").
 */
let writtenBack: { path: string; line: number; after: string } | null = null;

interface DiffModel {
  diff: TextDiff;
  aLines: string[];
  bLines: string[];
}

export function DiffView({ path, before, after, layout, beforeLabel, afterLabel, blockAction }: DiffViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const dark = useDarkScheme();
  const model = useMemo<DiffModel>(() => {
    const aLines = splitLines(before);
    const bLines = splitLines(after);
    return { diff: diffLineLists(aLines, bLines), aLines, bLines };
  }, [before, after]);
  const [current, setCurrent] = useState<number | null>(null);
  const scrollTo = useRef<(hunk: number) => void>(() => {});
  // The change in view, kept when the layout switches (the new view opens at the same change).
  const shown = useRef<number | null>(null);
  shown.current = current;
  // The line at the top of a view of these same texts built before (a layout or colour scheme switch).
  const top = useRef<{ model: DiffModel; line: number } | null>(null);

  useEffect(() => {
    shown.current = null;
    setCurrent(null);
  }, [model]);

  // Built before the browser paints, so the diff's first frame is the diff, not an empty pane.
  useLayoutEffect(() => {
    if (!host.current) return;
    const { root, container: parent } = shadowContainer(host.current);
    // The views ask for the changes between exactly these texts: hand them ours.
    const diffConfig: DiffConfig = { override: (a, b) => editorChanges(model.diff, model.aLines, model.bLines, a, b) };
    const action: BlockAction | undefined = blockAction && {
      ...blockAction,
      run: (block, index) => {
        writtenBack = { path, line: block.bStart, after };
        blockAction.run(block, index);
      },
    };
    const actions = action ? [blockActions(model.diff.blocks, model.bLines, action)] : [];
    // A change is shown from the top of its hunk: the context lines above it, then the change.
    const show = (view: EditorView, hunk: number) => {
      // The change shown before may be past the end of a diff of new texts (one change fewer).
      const line = model.diff.hunks[hunk]?.bStart;
      if (line === undefined) return;
      const pos = view.state.doc.line(Math.min(line + 1, view.state.doc.lines)).from;
      view.dispatch({ effects: EditorView.scrollIntoView(pos, { y: 'start', yMargin: 4 }) });
    };
    // Where the view opens: at a block just written back (its lines now read as they did in the
    // version), else at the change shown before the layout switched, else at the top.
    const open = (view: EditorView) => {
      const kept = writtenBack;
      if (kept && kept.path === path && kept.after !== after) {
        writtenBack = null;
        const pos = view.state.doc.line(Math.min(kept.line + 1, view.state.doc.lines)).from;
        view.dispatch({ effects: EditorView.scrollIntoView(pos, { y: 'center' }) });
      } else if (shown.current !== null) scrollTo.current(shown.current);
      else if (top.current?.model === model) {
        const pos = view.state.doc.line(Math.min(top.current.line, view.state.doc.lines)).from;
        view.dispatch({ effects: EditorView.scrollIntoView(pos, { y: 'start' }) });
      }
    };
    // Kept as a view goes: the next one of the same texts opens there.
    const keepTop = (view: EditorView) => {
      const block = view.lineBlockAtHeight(parent.getBoundingClientRect().top - view.documentTop);
      top.current = { model, line: view.state.doc.lineAt(block.from).number };
    };
    if (layout === 'side') {
      const view = new MergeView({
        a: { doc: before, extensions: [readOnlyExtensions(path, beforeLabel, dark), diffExtensions] },
        b: { doc: after, extensions: [readOnlyExtensions(path, afterLabel, dark), diffExtensions, actions] },
        parent,
        root,
        gutter: true,
        collapseUnchanged: collapse,
        diffConfig,
      });
      scrollTo.current = (hunk) => show(view.b, hunk);
      open(view.b);
      return () => {
        keepTop(view.b);
        view.destroy();
      };
    }
    const view = new EditorView({
      state: EditorState.create({
        doc: after,
        extensions: [
          readOnlyExtensions(path, `${beforeLabel} compared with ${afterLabel}`, dark),
          diffExtensions,
          actions,
          unifiedMergeView({ original: before, mergeControls: false, collapseUnchanged: collapse, diffConfig }),
        ],
      }),
      parent,
      root,
    });
    scrollTo.current = (hunk) => show(view, hunk);
    open(view);
    return () => {
      keepTop(view);
      view.destroy();
    };
  }, [path, before, after, model, layout, beforeLabel, afterLabel, dark, blockAction]);

  const total = model.diff.hunks.length;
  function go(index: number) {
    if (index < 0 || index >= total) return;
    setCurrent(index);
    scrollTo.current(index);
  }
  const next = () => go(current === null ? 0 : current + 1);
  const previous = () => go(current === null ? 0 : current - 1);

  // F7 and Shift+F7 step through the changes from anywhere in the window, as in other diff tools.
  const keys = useRef({ next, previous });
  keys.current = { next, previous };
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'F7' || event.ctrlKey || event.metaKey || event.altKey) return;
      event.preventDefault();
      if (event.shiftKey) keys.current.previous();
      else keys.current.next();
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <div className={`diff-view diff-${layout}`}>
      <DiffHeader layout={layout} diff={model.diff} current={current} beforeLabel={beforeLabel} afterLabel={afterLabel} onPrevious={previous} onNext={next} />
      <div className="diff-editors" ref={host} data-testid="diff-view" />
    </div>
  );
}
