import { MergeView, unifiedMergeView, type DiffConfig } from '@codemirror/merge';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useLayoutEffect, useRef, type RefObject } from 'react';
import type { TextDiff } from '../../shared/diff/textDiff.js';
import { diffExtensions, readOnlyExtensions } from './codeMirrorSetup.js';
import { blockActions, type BlockAction } from './blockActions.js';
import { editorChanges } from './diffChanges.js';
import { shadowContainer, useDarkScheme } from './shadowMount.js';

// The CodeMirror views of a diff view: a MergeView side by side, or one editor with the unified
// view inline, both fed the diff computed once (through their diff override). Each view opens
// where the one it replaces was, and returns how to scroll to a change.

export interface DiffModel {
  diff: TextDiff;
  aLines: string[];
  bLines: string[];
}

/** The texts and labels the views show, as the diff view receives them. */
export interface DiffTexts {
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

/** Builds the views in `host` and answers a function that scrolls them to a change (hunk). */
export function useDiffEditors(
  host: RefObject<HTMLDivElement | null>,
  model: DiffModel,
  shown: RefObject<number | null>,
  texts: DiffTexts,
): RefObject<(hunk: number) => void> {
  const { path, before, after, layout, beforeLabel, afterLabel, blockAction } = texts;
  const dark = useDarkScheme();
  const scrollTo = useRef<(hunk: number) => void>(() => {});
  // The line at the top of a view of these same texts built before (a layout or colour scheme switch).
  const top = useRef<{ model: DiffModel; line: number } | null>(null);

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
    const editor = createEditors({ ...texts, dark, parent, root, diffConfig, actions });
    scrollTo.current = (hunk) => show(editor.view, hunk);
    open(editor.view);
    return () => {
      keepTop(editor.view);
      editor.destroy();
    };
    // `texts` is read through the fields listed; `host` and `shown` are refs, the same on every render.
  }, [host, shown, path, before, after, model, layout, beforeLabel, afterLabel, dark, blockAction]);

  return scrollTo;
}

interface EditorsInput extends DiffTexts {
  dark: boolean;
  parent: HTMLElement;
  root: ShadowRoot;
  diffConfig: DiffConfig;
  actions: Extension[];
}

/** The views of one layout; `view` is the one showing the after text, which scrolls to a change. */
function createEditors(input: EditorsInput): { view: EditorView; destroy: () => void } {
  const { path, before, after, beforeLabel, afterLabel, dark, parent, root, diffConfig, actions } = input;
  if (input.layout === 'side') {
    const merge = new MergeView({
      a: { doc: before, extensions: [readOnlyExtensions(path, beforeLabel, dark), diffExtensions] },
      b: { doc: after, extensions: [readOnlyExtensions(path, afterLabel, dark), diffExtensions, actions] },
      parent,
      root,
      gutter: true,
      collapseUnchanged: collapse,
      diffConfig,
    });
    return { view: merge.b, destroy: () => merge.destroy() };
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
  return { view, destroy: () => view.destroy() };
}
