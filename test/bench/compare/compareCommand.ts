import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { addBaseTree } from '../baseTree.js';
import type { CaseRow } from '../runSuiteOnce.js';
import { compareRounds, renderComparison } from './compareRounds.js';

// `npm run bench:compare -- --base REF [--rounds N] [--bench NAME] [--case CASE]...`
// Checks REF out in a temporary worktree, gives it the head's node_modules through a symlink (no
// npm ci: the lockfiles are assumed equal, and the report says when they differ), builds both
// trees' CLI and bench rig, then runs the two trees' own runners alternately (base first in odd
// rounds, head first in even ones) and compares each figure round by round.

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    bench: { type: 'string', default: 'firstCopy' },
    case: { type: 'string', multiple: true },
  },
});
if (!values.base) {
  process.stderr.write('Usage: npm run bench:compare -- --base REF [--rounds N] [--bench NAME] [--case CASE]...\n');
  process.exit(2);
}
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 2) throw new Error('--rounds takes a whole number of at least 2 (a CI needs two pairs).');

const head = resolve('.');
const git = (...args: string[]) => execFileSync('git', args, { cwd: head, encoding: 'utf8' }).trim();
const headSha = git('rev-parse', 'HEAD');
const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
const baseTree = addBaseTree(values.base, head);
const { dir: base, sha: baseSha } = baseTree;

try {
  const lockNote = sameFile(join(base, 'package-lock.json'), join(head, 'package-lock.json'))
    ? 'lockfiles equal'
    : 'LOCKFILES DIFFER: base runs with the head node_modules';
  for (const tree of [base, head]) {
    if (!existsSync(join(tree, 'scripts/build-bench.mjs'))) {
      throw new Error(`${tree === base ? values.base : 'HEAD'} has no bench rig (scripts/build-bench.mjs): choose a later base.`);
    }
    run(tree, ['scripts/build-bench.mjs']);
  }
  const env = { ...process.env, HINDSIGHT_BENCH_FIXTURES: join(head, '.bench/fixtures') };
  const baseRounds: CaseRow[][] = [];
  const headRounds: CaseRow[][] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['base', 'head'] as const) : (['head', 'base'] as const);
    for (const side of order) {
      const tree = side === 'base' ? base : head;
      const rows = runSuite(tree, values.bench, values.case ?? [], env);
      (side === 'base' ? baseRounds : headRounds).push(rows);
      process.stderr.write(`round ${round + 1}/${rounds} ${side}: ${rows.map((r) => `${r.case} ${(r.ms / 1000).toFixed(2)} s`).join(', ')}\n`);
    }
  }
  const header = [
    `bench ${values.bench} | runtime node ${process.version} | rounds ${rounds} | base ${baseSha.slice(0, 12)} (${values.base}) | head ${headSha.slice(0, 12)}${dirty ? ' + working tree changes' : ''} | ${lockNote}`,
    'Per round: log(head/base) of each figure; shown as the geometric-mean ratio with its paired 95% CI (t distribution). A verdict only when the CI excludes 0.',
  ].join('\n');
  process.stdout.write(`${renderComparison(compareRounds(baseRounds, headRounds), header)}\n`);
} finally {
  baseTree.remove();
}

function run(cwd: string, args: string[]): void {
  const result = spawnSync(process.execPath, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed in ${cwd}`);
}

function runSuite(tree: string, bench: string, cases: string[], env: NodeJS.ProcessEnv): CaseRow[] {
  const result = spawnSync(process.execPath, [join(tree, 'out/bench/runSuite.js'), bench, ...cases], {
    cwd: head,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`the ${bench} suite failed in ${tree}`);
  return result.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CaseRow);
}

function sameFile(a: string, b: string): boolean {
  try {
    return readFileSync(a).equals(readFileSync(b));
  } catch {
    return false;
  }
}
