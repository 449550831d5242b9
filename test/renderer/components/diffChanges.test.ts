import { describe, expect, it } from 'vitest';
import { Chunk } from '@codemirror/merge';
import { Text } from '@codemirror/state';
import { editorChanges } from '../../../renderer/components/diffChanges.js';
import { splitLines } from '../../../shared/diff/splitLines.js';
import type { DiffBlock } from '../../../shared/diff/diffBlocks.js';
import { diffTexts } from '../../../shared/diff/textDiff.js';
import { editLines, sourceText } from '../../helpers/realEdits.js';

// What the merge views draw from our diff: CodeMirror builds its chunks (the blocks it colours
// and aligns) from the changes we hand it. They must be our blocks: no unchanged line inside a
// chunk, none of our changed lines outside one.

function chunksOf(before: string, after: string) {
  const diff = diffTexts(before, after);
  const a = Text.of(before.split(/\r\n?|\n/));
  const b = Text.of(after.split(/\r\n?|\n/));
  const override = (x: string, y: string) => editorChanges(diff, splitLines(before), splitLines(after), x, y);
  const chunks = Chunk.build(a, b, { override }).map((c) => ({
    aStart: a.lineAt(c.fromA).number - 1,
    aEnd: c.toA > c.fromA ? a.lineAt(c.endA).number : a.lineAt(c.fromA).number - 1,
    bStart: b.lineAt(c.fromB).number - 1,
    bEnd: c.toB > c.fromB ? b.lineAt(c.endB).number : b.lineAt(c.fromB).number - 1,
  }));
  return { diff, chunks };
}

/**
 * Our blocks as CodeMirror draws them: as they are, except that two blocks one blank line apart
 * become one chunk (its own choice of presentation, pinned by a test below).
 */
function drawnBlocks(blocks: readonly DiffBlock[], aLines: readonly string[]): DiffBlock[] {
  const out: DiffBlock[] = [];
  for (const block of blocks) {
    const last = out.at(-1);
    if (last && block.aStart === last.aEnd + 1 && aLines[last.aEnd]!.trim() === '') {
      last.aEnd = block.aEnd;
      last.bEnd = block.bEnd;
    } else out.push({ ...block });
  }
  return out;
}

describe('our diff in CodeMirror', () => {
  it('becomes our blocks on real edits of real code', () => {
    const source = sourceText(3000);
    for (let seed = 1; seed <= 60; seed++) {
      const before = source.slice(seed * 40, seed * 40 + 400);
      const { diff, chunks } = chunksOf(`${before.join('\n')}\n`, `${editLines(before, seed, 6).join('\n')}\n`);
      expect(chunks, `seed ${seed}`).toEqual(drawnBlocks(diff.blocks, before));
    }
  });
});

describe('edge cases', () => {
  const cases: [string, string, string][] = [
    ['brace separator', 'a\nb\n}\nc\nd\n', 'a\nB\n}\nC\nd\n'],
    ['two-char separator', 'a\nb\n};\nc\nd\n', 'a\nB\n};\nC\nd\n'],
    ['insert at top', 'x\ny\n', 'new line\nx\ny\n'],
    ['delete at top', 'old line\nx\ny\n', 'x\ny\n'],
    ['modify and add', 'f(a)\nz\n', 'f(b)\ng()\nz\n'],
    ['modify and add words', 'let total = count + 1;\nreturn total;\n', 'let total = count + step;\nlog(total);\nreturn total;\n'],
    ['add at end without newline', 'a\nb', 'a\nb\nc'],
    ['crlf', 'a\r\nb\r\nc\r\n', 'a\r\nB\r\nc\r\n'],
    ['added lines ending like the next', 'x\n}\n', 'x\n  y();\n}\n}\n'],
  ];
  for (const [name, before, after] of cases) {
    it(name, () => {
      const { diff, chunks } = chunksOf(before, after);
      expect(chunks).toEqual(diff.blocks);
    });
  }

  it('marks the words that changed, line against line where lines were edited in place', () => {
    const before = 'let total = count + 1;\nlet x = total;\nreturn total;\n';
    const after = 'let total = count + step;\nlet x = total * 2;\nreturn total;\n';
    const changes = editorChanges(diffTexts(before, after), splitLines(before), splitLines(after), before, after);
    expect(changes.map((c) => [before.slice(c.fromA, c.toA), after.slice(c.fromB, c.toB)])).toEqual([
      ['1', 'step'],
      ['', ' * 2'],
    ]);
  });

  it('marks the words added, not a rotation of them', () => {
    const before = 'function f({ start = 0 }: { start?: number }) {}\n';
    const after = 'function f({ start = 0, step = 1 }: { start?: number; step?: number }) {}\n';
    const changes = editorChanges(diffTexts(before, after), splitLines(before), splitLines(after), before, after);
    expect(changes.map((c) => after.slice(c.fromB, c.toB))).toEqual([', step = 1', '; step?: number']);
  });

  it('marks added lines in a block that also edits one, kept in place', () => {
    const before = 'f(a);\nz;\n';
    const after = 'f(b);\ng(c, d);\nz;\n';
    const changes = editorChanges(diffTexts(before, after), splitLines(before), splitLines(after), before, after);
    expect(changes.map((c) => [before.slice(c.fromA, c.toA), after.slice(c.fromB, c.toB)])).toEqual([
      ['a', 'b'],
      ['', '\ng(c, d);'],
    ]);
  });

  // Where CodeMirror's own presentation joins what we hand it (kept here so a change shows).
  it('two blocks one blank line apart are drawn as one chunk with the blank line in it', () => {
    const { diff, chunks } = chunksOf('a\nb\n\nc\nd\n', 'a\nB\n\nC\nd\n');
    expect(diff.blocks).toEqual([
      { aStart: 1, aEnd: 2, bStart: 1, bEnd: 2 },
      { aStart: 3, aEnd: 4, bStart: 3, bEnd: 4 },
    ]);
    expect(chunks).toEqual([{ aStart: 1, aEnd: 4, bStart: 1, bEnd: 4 }]);
  });

  it('lines added at the very top whose first line begins the next one are drawn with that line', () => {
    const { diff, chunks } = chunksOf('foobar\nx\n', 'foo\nfoobar\nx\n');
    expect(diff.blocks).toEqual([{ aStart: 0, aEnd: 0, bStart: 0, bEnd: 1 }]);
    expect(chunks).toEqual([{ aStart: 0, aEnd: 1, bStart: 0, bEnd: 2 }]);
  });
});
