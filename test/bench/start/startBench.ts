import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measureProcess } from '../measureProcess.js';
import { median, minMax } from '../stats.js';

// `npm run bench:start -- [--rounds N]`: the CLI's start on Node 22, with V8's compile cache
// (module.enableCompileCache(), on in out/cli/hindsight.js) against the same build with the cache
// turned off (NODE_DISABLE_COMPILE_CACHE=1), and both against `node -e 0` in the same run:
//   node-e-0         the runtime's own start: the floor
//   help-cache       hindsight --help (loads every command's module), compile cache warm
//   help-nocache     the same, compile cache off
//   reopen-cache     hindsight open on an unchanged one-file project, compile cache warm
//   reopen-nocache   the same, compile cache off
// The cases run interleaved, in an order rotated every round, so drift in the machine's load
// touches each alike. Ratios are of medians.

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '20' },
    cli: { type: 'string', default: fileURLToPath(new URL('../cli/hindsight.js', import.meta.url)) },
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
const cases: { name: string; argv: string[]; env: NodeJS.ProcessEnv }[] = [
  { name: 'node-e-0', argv: ['-e', '0'], env: process.env },
  { name: 'help-cache', argv: [cli, '--help'], env: cached },
  { name: 'help-nocache', argv: [cli, '--help'], env: uncached },
  { name: 'reopen-cache', argv: [cli, 'open', project, '--data-dir', dataDir], env: cached },
  { name: 'reopen-nocache', argv: [cli, 'open', project, '--data-dir', dataDir], env: uncached },
];

async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const measured = await measureProcess(process.execPath, argv, { env });
  if (measured.code !== 0) throw new Error(`${argv.join(' ')} exited ${measured.code}: ${measured.stderr}`);
  return measured.wallMs;
}

console.log(
  `bench:start | node ${process.version} | rounds ${rounds} | load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at start`,
);
// Not timed: the first copy, and one run that fills the compile cache.
await run([cli, 'open', project, '--data-dir', dataDir], cached);
await run([cli, '--help'], cached);

const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
for (let round = 0; round < rounds; round += 1) {
  for (let i = 0; i < cases.length; i += 1) {
    const c = cases[(i + round) % cases.length]!;
    times.get(c.name)!.push(await run(c.argv, c.env));
  }
}
rmSync(scratch, { recursive: true, force: true });

const med = (name: string) => median(times.get(name)!);
console.log('| case | median ms | min-max ms | x node -e 0 |');
console.log('|---|---:|---:|---:|');
for (const c of cases) {
  const { min, max } = minMax(times.get(c.name)!);
  console.log(`| ${c.name} | ${med(c.name).toFixed(0)} | ${min.toFixed(0)}-${max.toFixed(0)} | ${(med(c.name) / med('node-e-0')).toFixed(2)}x |`);
}
console.log(
  `compile cache / none: --help ${(med('help-cache') / med('help-nocache')).toFixed(2)}x, reopen ${(med('reopen-cache') / med('reopen-nocache')).toFixed(2)}x`,
);
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at end`,
);
