import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { onPath } from '../firstCopy/copyTools.js';
import { machineInfo } from '../firstCopy/machineInfo.js';
import { logTable, replayTable } from './densityReport.js';
import { isGitRepository } from './gitReplay.js';
import { logScenario, type LogResult } from './logScenario.js';
import { replayScenario, type ReplayResult } from './replayScenario.js';
import { storeTool, TOOL_NAMES, type StoreTool, type ToolName } from './storeTools.js';

// `npm run bench:density -- [--scenario replay,log] [--repo PATH] [--rev REV] [--commits N]
//   [--log-mib N] [--appends N] [--append-bytes N] [--tools hindsight,restic,borg-zstd3,borg-lz4,git]
//   [--scratch DIR] [--keep] [--json] [--save FILE]`
// Issue 30's store-density targets: sizes on disk, not times (load does not change them; it is
// printed anyway). Hindsight through the built CLI (out/bench/cli) with a data folder of its own.
//   replay  the last --commits first-parent commits of --repo (default: a bare mirror of
//           github.com/git/git), a state recorded after each, by every store
//   log     a --log-mib MiB seeded log appended --append-bytes --appends times, a version after each
// The tables go to stdout (with --json: one JSON document instead; --save FILE writes that document
// too); progress to stderr. The
// scratch folder (default: a fresh one in the system's temp folder) is removed at the end unless --keep.

const DEFAULT_REPO = '/work/.mirror/git+git/repo';
const SCENARIOS = ['replay', 'log'] as const;

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: SCENARIOS.join(',') },
    repo: { type: 'string', default: DEFAULT_REPO },
    rev: { type: 'string', default: 'HEAD' },
    commits: { type: 'string', default: '300' },
    'log-mib': { type: 'string', default: '20' },
    appends: { type: 'string', default: '30' },
    'append-bytes': { type: 'string', default: '1024' },
    tools: { type: 'string', default: TOOL_NAMES.join(',') },
    scratch: { type: 'string' },
    keep: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    save: { type: 'string' },
    cli: { type: 'string', default: fileURLToPath(new URL('./cli/hindsight.js', import.meta.url)) },
  },
});

function wholeNumber(name: string, least: number): number {
  const value = Number(values[name as keyof typeof values]);
  if (!Number.isInteger(value) || value < least) usage(`--${name} takes a whole number of at least ${least}.`);
  return value;
}

function listOf<T extends string>(name: string, allowed: readonly T[]): T[] {
  const given = String(values[name as keyof typeof values])
    .split(',')
    .filter(Boolean);
  const unknown = given.filter((g) => !allowed.includes(g as T));
  if (unknown.length > 0 || given.length === 0) usage(`--${name} takes a comma-separated list of ${allowed.join(', ')}.`);
  return given as T[];
}

function usage(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(2);
}

const scenarios = listOf('scenario', SCENARIOS);
const commits = wholeNumber('commits', 2);
const logBytes = wholeNumber('log-mib', 1) * 2 ** 20;
const appends = wholeNumber('appends', 1);
const appendBytes = wholeNumber('append-bytes', 1);
const repo = resolve(values.repo);
const cli = resolve(values.cli);
const note = (line: string) => process.stderr.write(`${line}\n`);

if (scenarios.includes('replay') && !isGitRepository(repo)) {
  usage(
    `No git repository at ${repo}. Give one with --repo PATH (bare or not), e.g. a mirror of the default:\n` +
      `  git clone --bare https://github.com/git/git.git /tmp/git.git && npm run bench:density -- --repo /tmp/git.git`,
  );
}
const skipped = listOf('tools', TOOL_NAMES).filter((name) => !onPath(storeTool(name, '', cli).needs));
const toolNames = listOf('tools', TOOL_NAMES).filter((name) => !skipped.includes(name));
if (!existsSync(cli)) usage(`No CLI at ${cli}: run through npm run bench:density, which builds it.`);

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const startLoad = load();
const scratch = values.scratch ? resolve(values.scratch) : mkdtempSync(join(tmpdir(), 'hindsight-bench-density-'));
mkdirSync(scratch, { recursive: true });
const tools = (folder: string): StoreTool[] => toolNames.map((name: ToolName) => storeTool(name, join(scratch, folder), cli));

const results: (ReplayResult | LogResult)[] = [];
try {
  // The log first: it takes minutes where the replay may take an hour.
  if (scenarios.includes('log')) results.push(await logScenario(logBytes, appends, appendBytes, join(scratch, 'log'), tools('log'), note));
  if (scenarios.includes('replay')) results.push(await replayScenario(repo, commits, values.rev, join(scratch, 'replay'), tools('replay'), note));
} finally {
  if (!values.keep) rmSync(scratch, { recursive: true, force: true });
  else note(`scratch kept in ${scratch}`);
}

const machine = machineInfo(tmpdir());
const document = `${JSON.stringify({ bench: 'density', loadAtStart: startLoad, loadAtEnd: load(), machine, skipped, results }, null, 1)}\n`;
if (values.save) writeFileSync(resolve(values.save), document);
if (values.json) {
  process.stdout.write(document);
} else {
  console.log(
    `bench:density | node ${process.version} | tools ${toolNames.join(', ')}${skipped.length ? ` (not installed: ${skipped.join(', ')})` : ''} | load ${startLoad} at start, ${load()} at end`,
  );
  console.log(JSON.stringify(machine));
  for (const result of results) console.log(`\n${result.scenario === 'replay' ? replayTable(result) : logTable(result)}`);
}
