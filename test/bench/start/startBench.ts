import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measureProcess } from '../measureProcess.js';
import { median, minMax } from '../stats.js';

// `npm run bench:start -- [--rounds N] [--fixture DIR] [--baseline-cli PATH]`: the CLI's start on
// Node 22, with V8's compile cache (module.enableCompileCache(), on in out/cli/hindsight.js)
// against the same build with the cache turned off (NODE_DISABLE_COMPILE_CACHE=1), and both
// against `node -e 0` in the same run:
//   node-e-0         the runtime's own start: the floor
//   help-cache       hindsight --help (loads every command's module), compile cache warm
//   help-nocache     the same, compile cache off
//   reopen-cache     hindsight open on an unchanged one-file project, compile cache warm
//   reopen-nocache   the same, compile cache off
// With --fixture (e.g. .bench/fixtures/seed-5000-git), a copy of that folder is opened once
// (not timed), then:
//   fixture-reopen   hindsight open of the unchanged copy, compile cache warm
//   fixture-git      git status in the copy (when it is a repository): issue 33's yardstick
// With --baseline-cli (another build's out/cli/hindsight.js, e.g. one made from an older commit
// in its own worktree), its own reopens of the same copy as fixture-baseline, interleaved.
// The cases run interleaved, in an order rotated every round, so drift in the machine's load
// touches each alike. Ratios are of medians; CPU is user + system of the process and its children
// (GNU time: 10 ms steps, so read the medians of many rounds).

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '20' },
    cli: { type: 'string', default: fileURLToPath(new URL('../cli/hindsight.js', import.meta.url)) },
    fixture: { type: 'string' },
    'baseline-cli': { type: 'string' },
  },
});
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number of at least 1.');
const cli = resolve(values.cli);

const scratch = mkdtempSync(join(tmpdir(), 'hindsight-start-bench-'));
const project = join(scratch, 'project');
const dataDir = join(scratch, 'data');
const cacheDir = join(scratch, 'compile-cache');
mkdirSync(project);
writeFileSync(join(project, 'notes.txt'), 'one file\n');

const cached = { ...process.env, NODE_COMPILE_CACHE: cacheDir };
const uncached = { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' };
interface Case {
  name: string;
  argv: string[];
  env: NodeJS.ProcessEnv;
  /** The program; the Node running this bench when not given. */
  command?: string;
}
const cases: Case[] = [
  { name: 'node-e-0', argv: ['-e', '0'], env: process.env },
  { name: 'help-cache', argv: [cli, '--help'], env: cached },
  { name: 'help-nocache', argv: [cli, '--help'], env: uncached },
  { name: 'reopen-cache', argv: [cli, 'open', project, '--data-dir', dataDir], env: cached },
  { name: 'reopen-nocache', argv: [cli, 'open', project, '--data-dir', dataDir], env: uncached },
];
const fixtureCopy = join(scratch, 'fixture');
const fixtureData = join(scratch, 'fixture-data');
if (values.fixture) {
  cpSync(resolve(values.fixture), fixtureCopy, { recursive: true, preserveTimestamps: true });
  cases.push({ name: 'fixture-reopen', argv: [cli, 'open', fixtureCopy, '--data-dir', fixtureData], env: cached });
  cases.push({ name: 'fixture-git', command: 'git', argv: ['-C', fixtureCopy, 'status', '--porcelain'], env: process.env });
  const baseline = values['baseline-cli'];
  if (baseline) cases.push({ name: 'fixture-baseline', argv: [resolve(baseline), 'open', fixtureCopy, '--data-dir', fixtureData], env: cached });
}

async function run(argv: string[], env: NodeJS.ProcessEnv, command = process.execPath): Promise<{ wallMs: number; cpuMs: number }> {
  const measured = await measureProcess(command, argv, { env });
  if (measured.code !== 0) throw new Error(`${argv.join(' ')} exited ${measured.code}: ${measured.stderr}`);
  return measured;
}

console.log(
  `bench:start | node ${process.version} | rounds ${rounds} | load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at start`,
);
// Not timed: the first copy, and one run that fills the compile cache.
await run([cli, 'open', project, '--data-dir', dataDir], cached);
await run([cli, '--help'], cached);
// The fixture's first copy, then a reopen for each build (so every timed reopen finds it
// unchanged) and a git status (the first one refreshes the copied index).
if (values.fixture) for (const c of cases.filter((c) => c.name.startsWith('fixture-'))) await run(c.argv, c.env, c.command);

const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
const cpu = new Map<string, number[]>(cases.map((c) => [c.name, []]));
for (let round = 0; round < rounds; round += 1) {
  for (let i = 0; i < cases.length; i += 1) {
    const c = cases[(i + round) % cases.length]!;
    const measured = await run(c.argv, c.env, c.command);
    times.get(c.name)!.push(measured.wallMs);
    cpu.get(c.name)!.push(measured.cpuMs);
  }
}
rmSync(scratch, { recursive: true, force: true });

const med = (name: string) => median(times.get(name)!);
console.log('| case | median ms | min-max ms | x node -e 0 | CPU median ms |');
console.log('|---|---:|---:|---:|---:|');
for (const c of cases) {
  const { min, max } = minMax(times.get(c.name)!);
  const cpuMs = median(cpu.get(c.name)!);
  console.log(
    `| ${c.name} | ${med(c.name).toFixed(0)} | ${min.toFixed(0)}-${max.toFixed(0)} | ${(med(c.name) / med('node-e-0')).toFixed(2)}x | ${cpuMs.toFixed(0)} |`,
  );
}
if (times.has('fixture-git')) console.log(`fixture reopen / git status: ${(med('fixture-reopen') / med('fixture-git')).toFixed(2)}x`);
if (times.has('fixture-baseline')) console.log(`fixture reopen, this build / baseline: ${(med('fixture-reopen') / med('fixture-baseline')).toFixed(2)}x`);
console.log(
  `compile cache / none: --help ${(med('help-cache') / med('help-nocache')).toFixed(2)}x, reopen ${(med('reopen-cache') / med('reopen-nocache')).toFixed(2)}x`,
);
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at end`,
);
