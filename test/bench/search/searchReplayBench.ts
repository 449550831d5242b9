import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { addBaseTree } from '../baseTree.js';
import { replayScenario } from '../density/replayScenario.js';
import { storeTool } from '../density/storeTools.js';
import { measureProcess } from '../measureProcess.js';
import { loadLine } from '../loadAverage.js';
import { median } from '../stats.js';

// `npm run bench:search-replay -- [--repo PATH] [--rev REV] [--commits 300] [--rounds 5]
//   [--base c50935c | --no-base] [--query TEXT]... [--regex-query PATTERN]... [--scratch DIR] [--keep]`
// Issue 41's search target: the last --commits first-parent commits of --repo replayed into one
// folder (bench:density's replay), each state recorded by this build's CLI and committed to a git
// repository of the same states; the index built; then each query searched through the whole CLI
// of this build and of the base commit's (built beside it from a worktree of that commit, on the
// same data folder), alternately, and each plain query through `git log -S` over the same states.
// Targets: this build within 1.2x of the base, and ahead of `git log -S`. Progress to stderr, the
// table to stdout; the scratch folder is removed unless --keep.

const DEFAULT_REPO = '/work/.mirror/git+git/repo';
const QUERIES = ['static int', 'TODO', 'xmalloc'];
const REGEX_QUERIES = ['\\bstrbuf_\\w+\\(', '[-+]?\\b\\d+ \\*', 'TODO|FIXME', 'die\\(_\\("[^"]*"'];

const { values } = parseArgs({
  options: {
    repo: { type: 'string', default: DEFAULT_REPO },
    rev: { type: 'string', default: 'HEAD' },
    commits: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '5' },
    base: { type: 'string', default: 'c50935c' },
    'no-base': { type: 'boolean', default: false },
    query: { type: 'string', multiple: true },
    'regex-query': { type: 'string', multiple: true },
    scratch: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const note = (line: string) => process.stderr.write(`${line}\n`);
const headCli = fileURLToPath(new URL('./cli/hindsight.js', import.meta.url));
const scratch = values.scratch ? resolve(values.scratch) : mkdtempSync(join(tmpdir(), 'hindsight-search-replay-'));
const base = values['no-base'] ? null : addBaseTree(values.base);

try {
  const tools = [storeTool('hindsight', scratch, headCli), storeTool('git', scratch, headCli)];
  for (const tool of tools) tool.init();
  const replay = await replayScenario(values.repo, Number(values.commits), values.rev, scratch, tools, note);
  const work = join(scratch, 'work');
  const dataDir = tools[0]!.store;
  const gitDir = tools[1]!.store;
  execFileSync(process.execPath, [headCli, 'index', work, '--data-dir', dataDir], { stdio: ['ignore', 'ignore', 'inherit'] });

  const clis: [string, string][] = [['head', headCli]];
  if (base) {
    note(`building the base's CLI (${base.sha.slice(0, 12)})`);
    const built = spawnSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: base.dir, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('the base commit did not build');
    clis.push([`base ${base.sha.slice(0, 12)}`, join(base.dir, 'out/cli/hindsight.js')]);
  }
  note(loadLine('start'));
  const queries = [
    ...(values.query ?? QUERIES).map((q) => ({ q, regex: false })),
    ...(values['regex-query'] ?? REGEX_QUERIES).map((q) => ({ q, regex: true })),
  ];
  const times = new Map<string, number[]>();
  const hits = new Map<string, string>();
  const add = (key: string, ms: number) => times.set(key, [...(times.get(key) ?? []), ms]);
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const { q, regex } of queries) {
      const order = round % 2 === 0 ? clis : [...clis].reverse();
      for (const [side, cli] of order) {
        const args = [cli, 'search', work, q, ...(regex ? ['--regex'] : []), '--limit', '1000', '--json', '--data-dir', dataDir];
        const run = await measureProcess(process.execPath, args);
        if (run.code !== 0) throw new Error(`${side} search ${q} failed: ${run.stderr.slice(-1000)}`);
        add(`${side}\t${q}`, run.wallMs);
        hits.set(`${side}\t${q}`, String((JSON.parse(run.stdout) as { results: unknown[] }).results.length));
      }
      if (!regex) {
        const run = await measureProcess('git', ['--git-dir', gitDir, 'log', `-S${q}`, '--oneline']);
        add(`git\t${q}`, run.wallMs);
        hits.set(`git\t${q}`, String(run.stdout.split('\n').filter(Boolean).length));
      }
    }
    note(`round ${round + 1}/${values.rounds} done`);
  }

  const ms = (key: string) => (times.has(key) ? median(times.get(key)!) : null);
  const lines = [
    `replay of ${replay.commits} commits of ${replay.repository} (${replay.first.slice(0, 12)}..${replay.last.slice(0, 12)}), ${values.rounds} rounds, medians of whole-process wall time`,
    `| query | ${clis.map(([side]) => `${side} ms (hits)`).join(' | ')} | head / base | git log -S ms (commits) | head / git |`,
    '|---|---|---|---|---|---|',
  ];
  let withinBase = true;
  let aheadOfGit = true;
  for (const { q, regex } of queries) {
    const head = ms(`head\t${q}`)!;
    const baseMs = clis[1] ? ms(`${clis[1][0]}\t${q}`) : null;
    const git = regex ? null : ms(`git\t${q}`);
    if (baseMs !== null && head > 1.2 * baseMs) withinBase = false;
    if (git !== null && head >= git) aheadOfGit = false;
    const cells = clis.map(([side]) => `${ms(`${side}\t${q}`)!.toFixed(0)} (${hits.get(`${side}\t${q}`)})`);
    lines.push(
      `| \`${q.replace(/\|/g, '\\|')}\`${regex ? ' --regex' : ''} | ${cells.join(' | ')} | ${baseMs === null ? '-' : (head / baseMs).toFixed(2)} | ${git === null ? '-' : `${git.toFixed(0)} (${hits.get(`git\t${q}`)})`} | ${git === null ? '-' : (head / git).toFixed(2)} |`,
    );
  }
  lines.push('');
  if (base) lines.push(`within 1.2x of the base on every query: ${withinBase ? 'met' : 'NOT met'}`);
  lines.push(`ahead of git log -S on every plain query: ${aheadOfGit ? 'met' : 'NOT met'}`);
  lines.push(loadLine('end'));
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  base?.remove();
  if (!values.keep) rmSync(scratch, { recursive: true, force: true });
}
