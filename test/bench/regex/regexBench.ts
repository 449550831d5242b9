import { build } from 'esbuild';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as headSearch from '../../../shared/textSearch.js';
import { addBaseTree } from '../baseTree.js';
import { loadLine } from '../loadAverage.js';
import { median } from '../stats.js';
import { CATASTROPHIC, catastrophicText } from './catastrophicPatterns.js';

// `npm run bench:regex -- [--sizes 256,1024] [--rounds 3] [--base c50935c] [--no-base]`
// Issue 41's target for the search's regex engine: each catastrophic pattern over 256 KiB and
// 1 MiB of the text that makes a backtracking engine explode, timed in this process (the engine is
// shared/textSearch.ts's compileQuery, as search runs it, case ignored, every match listed); the
// ratio of the large size's time to the small one's (linear: at most 4.5), and the time per MiB
// against the base commit's build of the same module (built beside it from a worktree of that
// commit): none slower per MiB than the base's slowest pattern. Rounds alternate head and base.

type Search = Pick<typeof headSearch, 'compileQuery' | 'queryMatches'>;

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '256,1024' },
    rounds: { type: 'string', default: '3' },
    base: { type: 'string', default: 'c50935c' },
    'no-base': { type: 'boolean', default: false },
  },
});
const sizes = values.sizes.split(',').map((kib) => Number(kib) * 1024);
const rounds = Number(values.rounds);

/** The base commit's shared/textSearch.ts, bundled from a worktree of it and imported. */
async function baseSearch(): Promise<{ search: Search; sha: string; remove: () => void }> {
  const tree = addBaseTree(values.base);
  const outfile = join(tree.dir, 'out/regexBench/textSearch.mjs');
  await build({ absWorkingDir: tree.dir, entryPoints: ['shared/textSearch.ts'], outfile, bundle: true, platform: 'node', format: 'esm', logLevel: 'warning' });
  return { search: (await import(pathToFileURL(outfile).href)) as Search, sha: tree.sha, remove: tree.remove };
}

/** Milliseconds to list every match, or null when the engine refuses the pattern or the text. */
function timed(search: Search, pattern: string, text: string): number | null {
  const started = performance.now();
  try {
    search.queryMatches(text, search.compileQuery({ query: pattern, regex: true, caseSensitive: false }), Infinity);
  } catch {
    return null;
  }
  return performance.now() - started;
}

const base = values['no-base'] ? null : await baseSearch();
process.stdout.write(`${loadLine('start')}\n`);
try {
  const sides: [string, Search][] = [['head', headSearch]];
  if (base) sides.push([`base ${base.sha.slice(0, 12)}`, base.search]);
  const times = new Map<string, (number | null)[]>();
  for (let round = 0; round < rounds; round++) {
    for (const c of CATASTROPHIC) {
      for (const size of sizes) {
        const text = catastrophicText(c, size);
        const order = round % 2 === 0 ? sides : [...sides].reverse();
        for (const [side, search] of order) {
          const key = `${side}\t${c.pattern}\t${size}`;
          times.set(key, [...(times.get(key) ?? []), timed(search, c.pattern, text)]);
        }
      }
    }
    process.stderr.write(`round ${round + 1}/${rounds} done\n`);
  }
  report(
    sides.map(([side]) => side),
    times,
  );
} finally {
  base?.remove();
}

function report(sides: string[], times: Map<string, (number | null)[]>): void {
  const [small, large] = [sizes[0]!, sizes[sizes.length - 1]!];
  const ms = (side: string, pattern: string, size: number) => {
    const all = times.get(`${side}\t${pattern}\t${size}`)!;
    return all.includes(null) ? null : median(all as number[]);
  };
  const perMiB = (side: string, pattern: string) => {
    const t = ms(side, pattern, large);
    return t === null ? null : (t * 2 ** 20) / large;
  };
  const fmt = (n: number | null, digits = 0) => (n === null ? 'refused' : n.toFixed(digits));
  const baseSlowest = sides[1] ? Math.max(...CATASTROPHIC.map((c) => perMiB(sides[1]!, c.pattern) ?? 0)) : null;
  const lines = [`| pattern | ${sides.map((s) => `${s} ${small / 1024} KiB ms | ${s} ${large / 1024} KiB ms | ${s} ratio | ${s} ms/MiB`).join(' | ')} |`];
  lines.push(`|${'---|'.repeat(1 + sides.length * 4)}`);
  let linear = true;
  let withinBase = true;
  for (const c of CATASTROPHIC) {
    const cells = sides.map((side) => {
      const [a, b] = [ms(side, c.pattern, small), ms(side, c.pattern, large)];
      const ratio = a === null || b === null ? null : b / a;
      if (side === 'head' && (ratio === null || ratio > (4.5 * large) / (4 * small))) linear = false;
      const mib = perMiB(side, c.pattern);
      if (side === 'head' && baseSlowest !== null && (mib === null || mib > baseSlowest)) withinBase = false;
      return `${fmt(a)} | ${fmt(b)} | ${fmt(ratio, 2)} | ${fmt(mib)}`;
    });
    lines.push(`| \`${c.pattern.replace(/\|/g, '\\|')}\` | ${cells.join(' | ')} |`);
  }
  lines.push('');
  lines.push(
    `linear (each ${large / 1024} KiB time at most ${((4.5 * large) / (4 * small)).toFixed(2)}x the ${small / 1024} KiB time): ${linear ? 'met' : 'NOT met'}`,
  );
  if (baseSlowest !== null) lines.push(`none slower per MiB than the base's slowest (${baseSlowest.toFixed(0)} ms/MiB): ${withinBase ? 'met' : 'NOT met'}`);
  lines.push(loadLine('end'));
  process.stdout.write(`${lines.join('\n')}\n`);
}
