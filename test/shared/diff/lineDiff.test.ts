import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { myersMark } from '../../../shared/diff/myersDiff.js';
import { histogramMark } from '../../../shared/diff/histogramDiff.js';
import { internLines, splitLines } from '../../../shared/diff/splitLines.js';
import { diffTexts } from '../../../shared/diff/textDiff.js';
import { seededRandom } from '../../bench/fixtures/seededRandom.js';
import { editLines, sourceText } from '../../helpers/realEdits.js';
import { tempDir } from '../../helpers/tempDirs.js';

// The line diff against the references: a real common subsequence always (the lines it keeps are
// the same on both sides), the shortest one where Myers runs unlimited, and the same hunks as
// `diff -u` on real edits of real code.

function lcsLength(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const row = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j]!;
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(up, row[j - 1]!);
      diagonal = up;
    }
  }
  return row[b.length]!;
}

function kept(seq: Int32Array, changed: Uint8Array): number[] {
  return [...seq].filter((_, i) => !changed[i]);
}

function randomSequence(random: () => number, length: number, alphabet: number): Int32Array {
  return Int32Array.from({ length }, () => Math.floor(random() * alphabet));
}

describe('Myers', () => {
  it('finds a longest common subsequence of random sequences', () => {
    const random = seededRandom(7);
    for (let round = 0; round < 600; round++) {
      const a = randomSequence(random, Math.floor(random() * 40), 1 + Math.floor(random() * 6));
      const b = randomSequence(random, Math.floor(random() * 40), 1 + Math.floor(random() * 6));
      const ca = new Uint8Array(a.length);
      const cb = new Uint8Array(b.length);
      myersMark(a, b, { aLo: 0, aHi: a.length, bLo: 0, bHi: b.length }, ca, cb, Infinity);
      expect(kept(a, ca), `round ${round}`).toEqual(kept(b, cb));
      expect(kept(a, ca).length, `round ${round}: ${[...a]} / ${[...b]}`).toBe(lcsLength(a, b));
    }
  });

  it('stays a correct diff when the step limit cuts the search short', () => {
    const random = seededRandom(11);
    for (let round = 0; round < 300; round++) {
      const a = randomSequence(random, Math.floor(random() * 200), 8);
      const b = randomSequence(random, Math.floor(random() * 200), 8);
      const ca = new Uint8Array(a.length);
      const cb = new Uint8Array(b.length);
      myersMark(a, b, { aLo: 0, aHi: a.length, bLo: 0, bHi: b.length }, ca, cb, 1 + (round % 5));
      expect(kept(a, ca), `round ${round}`).toEqual(kept(b, cb));
    }
  });
});

describe('histogram', () => {
  it('keeps a real common subsequence, and the longest one when every line is unique', () => {
    const random = seededRandom(3);
    for (let round = 0; round < 300; round++) {
      const repeats = round % 2 === 0;
      const base = Array.from({ length: 30 + Math.floor(random() * 60) }, (_, i) => (repeats ? `line ${Math.floor(random() * 12)}` : `line ${i}`));
      const edited = base.filter(() => random() > 0.2).flatMap((l) => (random() < 0.15 ? [l, `new ${Math.floor(random() * 1e6)}`] : [l]));
      const { a, b, distinct } = internLines(base, edited);
      const ca = new Uint8Array(a.length);
      const cb = new Uint8Array(b.length);
      histogramMark(a, b, distinct, ca, cb);
      expect(kept(a, ca)).toEqual(kept(b, cb));
      if (!repeats) expect(kept(a, ca).length).toBe(lcsLength(a, b));
    }
  });

  it('does not cut an unchanged run in two at a common line such as "}"', () => {
    const before = ['int a() {', '  return 1;', '}', '', 'int b() {', '  return 2;', '}', ''];
    const after = ['int a() {', '  return 1;', '}', '', 'int c() {', '  return 3;', '}', '', 'int b() {', '  return 2;', '}', ''];
    const diff = diffTexts(before.join('\n'), after.join('\n'));
    expect(diff.blocks).toEqual([{ aStart: 4, aEnd: 4, bStart: 4, bEnd: 8 }]);
    expect([diff.added, diff.removed]).toEqual([4, 0]);
  });
});

describe('diffTexts', () => {
  it('counts lines added and removed, and tells a missing final newline apart', () => {
    expect(diffTexts('a\nb\nc\n', 'a\nB\nc\nd\n')).toMatchObject({
      added: 2,
      removed: 1,
      blocks: [
        { aStart: 1, aEnd: 2, bStart: 1, bEnd: 2 },
        { aStart: 3, aEnd: 3, bStart: 3, bEnd: 4 },
      ],
    });
    expect(diffTexts('a\nb', 'a\nb\n')).toMatchObject({ added: 1, removed: 1 });
    expect(diffTexts('same\n', 'same\n')).toMatchObject({ added: 0, removed: 0, blocks: [], hunks: [] });
    expect(diffTexts('', 'x\ny\n')).toMatchObject({ added: 2, removed: 0, hunks: [{ aStart: 0, aEnd: 0, bStart: 0, bEnd: 2 }] });
    expect(splitLines('a\r\nb')).toEqual(['a\r\n', 'b']);
    expect(splitLines('a\rb\n\n')).toEqual(['a\r', 'b\n', '\n']);
  });

  it('slides an added run to one place, joining a neighbour it can reach', () => {
    // "x" added next to another "x": one block, at its lowest place.
    expect(diffTexts('a\nx\nb\n', 'a\nx\nx\nb\n').blocks).toEqual([{ aStart: 2, aEnd: 2, bStart: 2, bEnd: 3 }]);
    // A removal that can slide onto a change below becomes part of it.
    expect(diffTexts('p\nq\nq\nr\n', 'p\nq\nR\n').blocks).toHaveLength(1);
  });

  it('groups blocks into the hunks diff -u prints: at most six unchanged lines apart is one hunk', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`);
    for (const gap of [5, 6, 7, 8]) {
      const edited = lines.map((l, i) => (i === 10 || i === 11 + gap ? `${l} edited` : l));
      expect(diffTexts(lines.join('\n'), edited.join('\n')).hunks.length, `gap ${gap}`).toBe(gap <= 6 ? 1 : 2);
    }
  });

  it('finds as many hunks as diff -u on real edits of real code', () => {
    const dir = tempDir();
    const source = sourceText(3000);
    let compared = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const start = (seed * 211) % 2000;
      const before = source.slice(start, start + 300 + (seed % 7) * 100);
      const after = editLines(before, seed, 2 + (seed % 6));
      const beforeText = `${before.join('\n')}\n`;
      const afterText = `${after.join('\n')}\n`;
      writeFileSync(join(dir, 'a'), beforeText);
      writeFileSync(join(dir, 'b'), afterText);
      const reference = spawnSync('diff', ['-u', join(dir, 'a'), join(dir, 'b')], { encoding: 'utf8' });
      expect(reference.status, reference.stderr).toBe(1);
      const expected = reference.stdout.split('\n').filter((l) => l.startsWith('@@ ')).length;
      const diff = diffTexts(beforeText, afterText);
      expect(diff.hunks.length, `seed ${seed}`).toBe(expected);
      const plus = reference.stdout.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++')).length;
      const minus = reference.stdout.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---')).length;
      expect(diff.added - diff.removed, `seed ${seed}`).toBe(plus - minus);
      compared++;
    }
    expect(compared).toBe(60);
  });

  it('finds the same blocks as git diff --histogram on real edits of real code', () => {
    const dir = tempDir();
    const source = sourceText(5000);
    for (let seed = 1; seed <= 100; seed++) {
      const start = (seed * 97) % 4000;
      const before = `${source.slice(start, start + 500).join('\n')}\n`;
      const after = `${editLines(source.slice(start, start + 500), seed, 2 + (seed % 8)).join('\n')}\n`;
      expect(diffTexts(before, after).blocks, `seed ${seed}`).toEqual(gitBlocks(dir, before, after));
    }
  });

  it('matches git on a long file whose blank lines and braces occur hundreds of times', () => {
    const before = sourceText(10_000);
    const beforeText = `${before.join('\n')}\n`;
    const afterText = `${editLines(before, 77, 40).join('\n')}\n`;
    const diff = diffTexts(beforeText, afterText);
    expect(diff.blocks).toEqual(gitBlocks(tempDir(), beforeText, afterText));
    expect(diff.hunks.length).toBeGreaterThan(20);
  });

  it('anchors on the rarest lines, not Myers, and lines a slid run up with a change on the other side, as git does', () => {
    // Small cases found by search where each rule decides the result.
    const cases = [
      [
        ['{', 'd', '', '{', '', '}', '}', '', '{', '}', 'd'],
        ['{', 'f', '', '', '}', 'h', '}', '{', '', '{', '}', 'd'],
      ],
      [
        ['i', '', 'f', 'f', '', 'j', 'h', 'e', '}', 'f'],
        ['f', 'f', 'e', '', '', 'j', 'h', 'e', '}'],
      ],
      [
        ['h', 'e', '', 'e', '', '{', 'a', '{'],
        ['h', '{', 'e', 'h', '', 'a', 'e', 'd', '', '{', 'd', 'a', '}', '{'],
      ],
      [
        ['}', '', '}', 'h', '{', '', 'c', '', ''],
        ['}', 'g', '', '}', '{', 'h', '', ''],
      ],
      [
        ['a', '}', '', '', '', '}', '}', '{', 'f', '}', '}', 'i', '{'],
        ['a', '}', '', '', '}', '}', 'j', '{', '}', '{', '}', '{'],
      ],
      [
        ['', 'a', '', 'g', 'b', 'a', '{', 'g', 'a'],
        ['a', '', 'g', 'e', 'b', '{', 'e', 'g', 'b', 'a'],
      ],
      [
        ['', 'c', '}', 'd', '{', '{', 'f', '{'],
        ['', 'g', '}', 'd', '{', '{', '{', 'g', '{'],
      ],
    ];
    const dir = tempDir();
    for (const [a, b] of cases) {
      const before = `${a!.join('\n')}\n`;
      const after = `${b!.join('\n')}\n`;
      expect(diffTexts(before, after).blocks).toEqual(gitBlocks(dir, before, after));
    }
  });

  it('keeps whole functions together where a plain shortest diff interleaves their braces', () => {
    // Bram Cohen's example for patience diff: fib() added above frobnitz(), fact() removed below it.
    const before = [
      '#include <stdio.h>',
      '',
      '// Frobs foo heartily',
      'int frobnitz(int foo)',
      '{',
      '    int i;',
      '    for(i = 0; i < 10; i++)',
      '    {',
      '        printf("Your answer is: ");',
      '        printf("%d\\n", foo);',
      '    }',
      '}',
      '',
      'int fact(int n)',
      '{',
      '    if(n > 1)',
      '    {',
      '        return fact(n-1) * n;',
      '    }',
      '    return 1;',
      '}',
      '',
      'int main(int argc, char **argv)',
      '{',
      '    frobnitz(fact(10));',
      '}',
      '',
    ].join('\n');
    const after = [
      '#include <stdio.h>',
      '',
      'int fib(int n)',
      '{',
      '    if(n > 2)',
      '    {',
      '        return fib(n-1) + fib(n-2);',
      '    }',
      '    return 1;',
      '}',
      '',
      '// Frobs foo heartily',
      'int frobnitz(int foo)',
      '{',
      '    int i;',
      '    for(i = 0; i < 10; i++)',
      '    {',
      '        printf("%d\\n", foo);',
      '    }',
      '}',
      '',
      'int main(int argc, char **argv)',
      '{',
      '    frobnitz(fib(10));',
      '}',
      '',
    ].join('\n');
    const diff = diffTexts(before, after);
    expect(diff.blocks).toEqual(gitBlocks(tempDir(), before, after));
    expect(diff.blocks).toEqual([
      { aStart: 2, aEnd: 2, bStart: 2, bEnd: 11 }, // fib() added, whole
      { aStart: 8, aEnd: 9, bStart: 17, bEnd: 17 }, // one printf removed
      { aStart: 13, aEnd: 22, bStart: 21, bEnd: 21 }, // fact() and the blank line after it removed, whole
      { aStart: 24, aEnd: 25, bStart: 23, bEnd: 24 }, // fact(10) -> fib(10)
    ]);
  });
});

/** The blocks of `git diff --no-index --histogram -U0` (no indent heuristic: it only moves sliders). */
function gitBlocks(dir: string, before: string, after: string): { aStart: number; aEnd: number; bStart: number; bEnd: number }[] {
  writeFileSync(join(dir, 'a'), before);
  writeFileSync(join(dir, 'b'), after);
  const git = spawnSync('git', ['diff', '--no-index', '--histogram', '--no-indent-heuristic', '-U0', 'a', 'b'], { cwd: dir, encoding: 'utf8' });
  expect(git.status, git.stderr).toBe(1);
  return git.stdout
    .split('\n')
    .filter((l) => l.startsWith('@@ '))
    .map((l) => {
      const [, a, aCount, b, bCount] = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(l)!;
      const aLength = aCount === undefined ? 1 : Number(aCount);
      const bLength = bCount === undefined ? 1 : Number(bCount);
      // An empty side names the line before the gap; a non-empty one its first line (1-based).
      const aStart = aLength === 0 ? Number(a) : Number(a) - 1;
      const bStart = bLength === 0 ? Number(b) : Number(b) - 1;
      return { aStart, aEnd: aStart + aLength, bStart, bEnd: bStart + bLength };
    });
}
