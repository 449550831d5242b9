import { EditorSelection, EditorState, type Extension } from '@codemirror/state';
import { Decoration, drawSelection, EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { readOnlyExtensions } from './codeMirrorSetup.js';
import { selectedLines } from './selectedLines.js';
import { shadowContainer, useDarkScheme } from './shadowMount.js';

// A version's text, read-only, with line numbers and syntax highlighting; with `mark`, that range
// (a search's match) is highlighted, selected and scrolled into the middle of the view; with
// `onSelectLines`, the lines the selection covers (or the cursor's line) are reported as the
// reader moves it with the mouse or the keys ("History for selection" follows them).

export interface TextRange {
  from: number;
  to: number;
}

const markTheme = EditorView.theme({
  '.cm-search-hit': { backgroundColor: 'var(--search-hit)', outline: '1px solid var(--search-hit-border)', borderRadius: '2px' },
});

function markExtensions(mark: TextRange): Extension[] {
  return [markTheme, EditorView.decorations.of(Decoration.set([Decoration.mark({ class: 'cm-search-hit' }).range(mark.from, Math.max(mark.to, mark.from))]))];
}

/** Lines counted from 1, both included. */
export type SelectLines = (from: number, to: number) => void;

interface CodeViewProps {
  path: string;
  text: string;
  label: string;
  mark?: TextRange | null;
  onSelectLines?: SelectLines;
}

export function CodeView({ path, text, label, mark, onSelectLines }: CodeViewProps) {
  const host = useRef<HTMLDivElement>(null);
  // Read through a ref, so a new callback does not build the editor again.
  const report = useRef(onSelectLines);
  report.current = onSelectLines;
  // The editor is built again when the colour scheme changes: the reader's selection of the same text stays.
  const kept = useRef<{ text: string; selection: EditorSelection } | null>(null);
  const dark = useDarkScheme();
  const from = mark?.from;
  const to = mark?.to;
  useEffect(() => {
    if (!host.current) return;
    const { root, container } = shadowContainer(host.current);
    const range = from !== undefined && to !== undefined && to <= text.length ? { from, to } : null;
    const selection = EditorView.updateListener.of((update) => {
      if (!report.current || !(update.selectionSet || (update.focusChanged && update.view.hasFocus))) return;
      const lines = selectedLines(update.state);
      report.current(lines.from, lines.to);
    });
    // Drawn by the editor, the selection stays in view while the keyboard is elsewhere (the History for selection panel).
    const extensions = [readOnlyExtensions(path, label, dark), drawSelection(), selection, ...(range ? markExtensions(range) : [])];
    const before = kept.current?.text === text ? kept.current.selection : undefined;
    const state = EditorState.create({ doc: text, extensions, selection: range ? EditorSelection.range(range.from, range.to) : before });
    const view = new EditorView({ state, parent: container, root });
    if (range) {
      view.dispatch({ effects: EditorView.scrollIntoView(range.from, { y: 'center' }) });
      // The found text is what the reader came for: keyboard focus goes to it.
      view.contentDOM.focus({ preventScroll: true });
    }
    return () => {
      kept.current = { text, selection: view.state.selection };
      view.destroy();
    };
  }, [path, text, label, dark, from, to]);
  return <div className="code-view" ref={host} />;
}
