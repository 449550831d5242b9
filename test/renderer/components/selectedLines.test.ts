import { describe, expect, it } from 'vitest';
import { EditorSelection, EditorState } from '@codemirror/state';
import { selectedLines } from '../../../renderer/components/selectedLines.js';

// The lines History for selection follows, from a selection in a version's text.

const TEXT = 'one\ntwo\nthree\nfour\n';
const at = (anchor: number, head = anchor) => EditorState.create({ doc: TEXT, selection: EditorSelection.single(anchor, head) });
const lineStart = (n: number) => at(0).doc.line(n).from;

describe('selectedLines', () => {
  it('is the cursor’s line when nothing is selected', () => {
    expect(selectedLines(at(lineStart(3) + 2))).toEqual({ from: 3, to: 3 });
    expect(selectedLines(at(0))).toEqual({ from: 1, to: 1 });
  });

  it('covers the lines from the selection’s start to its end, whichever way it was made', () => {
    expect(selectedLines(at(lineStart(2) + 1, lineStart(3) + 2))).toEqual({ from: 2, to: 3 });
    expect(selectedLines(at(lineStart(3) + 2, lineStart(2) + 1))).toEqual({ from: 2, to: 3 });
  });

  it('leaves out the line a selection ends at the start of (Shift+Down to the line below)', () => {
    expect(selectedLines(at(lineStart(2), lineStart(4)))).toEqual({ from: 2, to: 3 });
    // One whole line selected by its line break: that line alone.
    expect(selectedLines(at(lineStart(2), lineStart(3)))).toEqual({ from: 2, to: 2 });
  });

  it('counts the empty last line after a final line break', () => {
    expect(selectedLines(at(TEXT.length))).toEqual({ from: 5, to: 5 });
  });
});
