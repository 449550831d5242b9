import type { EditorState } from '@codemirror/state';

// The lines a text's selection covers, as "History for selection" follows them: from the line of
// its start to the line of its end, counted from 1; a selection that ends at the start of a line
// (a drag or Shift+Down to the line below) leaves that line out, as editors do; no selection is the
// cursor's line.

export function selectedLines(state: EditorState): { from: number; to: number } {
  const { doc, selection } = state;
  const { from, to } = selection.main;
  const first = doc.lineAt(from).number;
  const last = doc.lineAt(to);
  return { from: first, to: to > from && to === last.from ? Math.max(first, last.number - 1) : last.number };
}
