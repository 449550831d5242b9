import { EditorSelection, EditorState, type Extension } from '@codemirror/state';
import { Decoration, EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { readOnlyExtensions } from './codeMirrorSetup.js';
import { shadowContainer, useDarkScheme } from './shadowMount.js';

// A version's text, read-only, with line numbers and syntax highlighting; with `mark`, that range
// (a search's match) is highlighted, selected and scrolled into the middle of the view.

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

export function CodeView({ path, text, label, mark }: { path: string; text: string; label: string; mark?: TextRange | null }) {
  const host = useRef<HTMLDivElement>(null);
  const dark = useDarkScheme();
  const from = mark?.from;
  const to = mark?.to;
  useEffect(() => {
    if (!host.current) return;
    const { root, container } = shadowContainer(host.current);
    const range = from !== undefined && to !== undefined && to <= text.length ? { from, to } : null;
    const extensions = [readOnlyExtensions(path, label, dark), ...(range ? markExtensions(range) : [])];
    const state = EditorState.create({ doc: text, extensions, selection: range ? EditorSelection.range(range.from, range.to) : undefined });
    const view = new EditorView({ state, parent: container, root });
    if (range) {
      view.dispatch({ effects: EditorView.scrollIntoView(range.from, { y: 'center' }) });
      // The found text is what the reader came for: keyboard focus goes to it.
      view.contentDOM.focus({ preventScroll: true });
    }
    return () => view.destroy();
  }, [path, text, label, dark, from, to]);
  return <div className="code-view" ref={host} />;
}
