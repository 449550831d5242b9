import { mkdirSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureFixture, FIXTURE_SHAPES, type FixtureShape } from '../fixtures/generateFixture.js';
import { machineInfo } from '../firstCopy/machineInfo.js';
import { measureProcess, type ProcessMeasure } from '../measureProcess.js';
import { dropPageCache, type CacheState } from '../pageCache.js';
import { median, minMax } from '../stats.js';

// `npm run bench:bundle -- [--rounds N] [--shapes seed-4005,seed-50005,big-4x256] [--fixtures DIR] [--scratch DIR]`
// Export, import and writing a snapshot into a new folder, each against its reference in the same
// run, as whole processes (wall, CPU, peak RSS through GNU time):
//   export            hindsight export FOLDER --to FILE        vs  tar -cf FILE -C FOLDER .
//   import            hindsight import FILE --as EMPTY (a fresh data folder)  vs  tar -xf FILE -C EMPTY
//   restore-into-off  hindsight restore --into, closes inline  vs  cp -a FOLDER NEW
//   restore-into-on   the same, closes on the background closer (4 in flight, 384 queued)
// Each round runs the cases in an order rotated every round, on a cold page cache when it can be
// dropped. The history each shape is exported from is made once, before the rounds (not timed).
// The ratio column is ours / reference on medians; the targets: export, import <= 1.2x
// tar, restore --into <= 1.0x cp -a, peak RSS <= 150 MiB on big-4x256.

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    shapes: { type: 'string', default: 'seed-4005,seed-50005' },
    fixtures: { type: 'string', default: '.bench/fixtures' },
    scratch: { type: 'string', default: '.bench/scratch/bundle' },
    cli: { type: 'string', default: fileURLToPath(new URL('./cli/hindsight.js', import.meta.url)) },
  },
});
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number of at least 1.');
const shapes = values.shapes.split(',').map((s) => s.trim()) as FixtureShape[];
for (const shape of shapes) if (!FIXTURE_SHAPES.includes(shape)) throw new Error(`Unknown shape ${shape}: choose from ${FIXTURE_SHAPES.join(', ')}.`);
const cli = resolve(values.cli);
const scratch = resolve(values.scratch);

interface Case {
  name: string;
  reference: string;
  /** Makes what the run needs (not timed); returns the command. */
  prepare: (dir: string) => [string, string[]];
}

async function must(command: string, args: string[]): Promise<ProcessMeasure> {
  const run = await measureProcess(command, args);
  if (run.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return run;
}

function casesFor(folder: string, dataDir: string, bundle: string, tarball: string): Case[] {
  const hs = (...args: string[]): [string, string[]] => [process.execPath, [cli, ...args]];
  const fresh = (dir: string, name: string) => {
    const path = join(dir, name);
    mkdirSync(path, { recursive: true });
    return path;
  };
  return [
    { name: 'export', reference: 'tar -c', prepare: (dir) => hs('export', folder, '--to', join(dir, 'out.hsb'), '--data-dir', dataDir) },
    { name: 'tar -c', reference: '', prepare: (dir) => ['tar', ['-cf', join(dir, 'out.tar'), '-C', folder, '.']] },
    { name: 'import', reference: 'tar -x', prepare: (dir) => hs('import', bundle, '--as', fresh(dir, 'target'), '--data-dir', fresh(dir, 'data')) },
    { name: 'tar -x', reference: '', prepare: (dir) => ['tar', ['-xf', tarball, '-C', fresh(dir, 'target')]] },
    {
      name: 'restore-into-off',
      reference: 'cp -a',
      prepare: (dir) => hs('restore', folder, '--snapshot', '1', '--into', join(dir, 'new'), '--background-close', 'off', '--data-dir', dataDir),
    },
    {
      name: 'restore-into-on',
      reference: 'cp -a',
      prepare: (dir) => hs('restore', folder, '--snapshot', '1', '--into', join(dir, 'new'), '--background-close', 'on', '--data-dir', dataDir),
    },
    { name: 'cp -a', reference: '', prepare: (dir) => ['cp', ['-a', folder, join(dir, 'new')]] },
  ];
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const started = new Date().toISOString();
console.log(`bundle benchmark, ${rounds} rounds, shapes ${shapes.join(', ')}; load average at start ${loadavg().map(round2).join(' ')}`);
console.log(JSON.stringify(machineInfo(resolve(values.fixtures))));
let cache: CacheState = 'cold';
const report: string[] = [
  '| shape | case | wall median (s) | wall range (s) | CPU median (s) | peak RSS (MiB) | ratio to reference (wall) |',
  '|---|---|---|---|---|---|---|',
];

for (const shape of shapes) {
  const folder = ensureFixture(resolve(values.fixtures), shape);
  const base = join(scratch, shape);
  rmSync(base, { recursive: true, force: true });
  const dataDir = join(base, 'data');
  mkdirSync(dataDir, { recursive: true });
  // The history to export and write out: the fixture's first copy, and its bundle and tarball.
  await must(process.execPath, [cli, 'open', folder, '--yes', '--data-dir', dataDir]);
  const bundle = join(base, 'history.hsb');
  const tarball = join(base, 'files.tar');
  await must(process.execPath, [cli, 'export', folder, '--to', bundle, '--data-dir', dataDir]);
  await must('tar', ['-cf', tarball, '-C', folder, '.']);
  console.log(`${shape}: bundle ${statSync(bundle).size} bytes, tar ${statSync(tarball).size} bytes`);

  const cases = casesFor(folder, dataDir, bundle, tarball);
  const samples = new Map<string, ProcessMeasure[]>(cases.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = cases.map((_, i) => cases[(i + round) % cases.length]!);
    for (const c of order) {
      const dir = join(base, 'run');
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const [command, args] = c.prepare(dir);
      if (dropPageCache() === 'warm') cache = 'warm';
      const sample = await must(command, args);
      samples.get(c.name)!.push(sample);
      process.stderr.write(
        `round ${round + 1}/${rounds} ${shape} ${c.name}: ${(sample.wallMs / 1000).toFixed(2)} s, ${Math.round(sample.maxRssKb / 1024)} MiB\n`,
      );
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const wall = (name: string) => median(samples.get(name)!.map((s) => s.wallMs));
  for (const c of cases) {
    const runs = samples.get(c.name)!;
    const range = minMax(runs.map((s) => s.wallMs / 1000));
    const ratio = c.reference ? `${round2(wall(c.name) / wall(c.reference))}x ${c.reference}` : '';
    report.push(
      `| ${shape} | ${c.name} | ${round2(wall(c.name) / 1000)} | ${round2(range.min)}-${round2(range.max)} | ${round2(median(runs.map((s) => s.cpuMs)) / 1000)} | ${Math.round(Math.max(...runs.map((s) => s.maxRssKb)) / 1024)} | ${ratio} |`,
    );
  }
  rmSync(base, { recursive: true, force: true });
}
console.log(`\n${started}, ${rounds} rounds, page cache ${cache}, load average at end ${loadavg().map(round2).join(' ')}\n`);
console.log(report.join('\n'));
