import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../bench/fixtures/seededRandom.js';

// Real text with edits of the kinds people make (a line changed, a few lines added, a few
// removed, a block of code added), at places spread through the file; seeded, so every run and
// every machine sees the same pairs. The text is real code that does not move under the tests:
// the TypeScript compiler (node_modules/typescript/lib/typescript.js, pinned by the lockfile).

const root = fileURLToPath(new URL('../../', import.meta.url));
let corpus: string[] | undefined;

/** `lines` lines of real code, from line `from` of the corpus on. */
export function sourceText(lines: number, from = 1000): string[] {
  corpus ??= readFileSync(join(root, 'node_modules/typescript/lib/typescript.js'), 'utf8').split('\n');
  if (from + lines > corpus.length) throw new Error(`the corpus has ${corpus.length} lines, not ${from + lines}`);
  return corpus.slice(from, from + lines);
}

/** `count` edits at distinct places of `lines`, chosen by `seed`. */
export function editLines(lines: readonly string[], seed: number, count: number): string[] {
  const random = seededRandom(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const places = new Set<number>();
  while (places.size < count) places.add(pick(lines.length));
  const out = lines.slice();
  // From the bottom up, so earlier places keep their line numbers.
  for (const at of [...places].sort((x, y) => y - x)) {
    const span = 1 + pick(4);
    switch (pick(4)) {
      case 0: // change a few lines
        for (let i = at; i < Math.min(out.length, at + span); i++) out[i] = `${out[i]!.replace(/\w+/, (w) => `${w}Edited`)} // seed ${seed}`;
        break;
      case 1: // add lines taken from elsewhere in the file, as a paste does
        out.splice(
          at,
          0,
          ...lines
            .slice(pick(lines.length - 8), undefined)
            .slice(0, span + 2)
            .map((l) => `  ${l}`),
        );
        break;
      case 2: // remove lines
        out.splice(at, span);
        break;
      default: // a new block of code
        out.splice(at, 0, `function added${seed}_${at}() {`, `  return ${at};`, '}', '');
    }
  }
  return out;
}
