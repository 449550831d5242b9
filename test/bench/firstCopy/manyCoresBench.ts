import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { measureProcess, type ProcessMeasure } from '../measureProcess.js';
import { dropPageCache } from '../pageCache.js';
import { comparePaired, median } from '../stats.js';
import { cpTool } from './copyTools.js';

// `npm run bench:many-cores -- [--rounds N] [--shapes seed-50005,src-tree] [--cores N]`: for a
// machine with many cores (issue 33, target 3). Each round copies every shape with `cp -a`, with
// the CLI at copy concurrency = the cores and with the CLI at 2, in an order rotated every round,
// each into a fresh destination after the page cache is dropped (when that is allowed). Prints,
// per shape, each entry's median wall and CPU, its ratio to `cp -a` and the ratio of the cores
// run to the 2 run (paired per round, geometric mean with its 95% CI). The concurrency is set
// with `hindsight config set copyConcurrency N` in the fresh data folder, untimed.

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    shapes: { type: 'string', default: 'seed-50005,src-tree' },
    cores: { type: 'string', default: String(availableParallelism()) },
    fixtures: { type: 'string', default: '.bench/fixtures' },
    scratch: { type: 'string', default: '.bench/scratch' },
    cli: { type: 'string', default: 'out/bench/cli/hindsight.js' },
  },
});
const rounds = Number(values.rounds);
const cores = Number(values.cores);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number of at least 1.');
if (!Number.isInteger(cores) || cores < 1) throw new Error('--cores takes a whole number of at least 1.');
const cli = resolve(values.cli);
const scratch = resolve(values.scratch, 'many-cores');

interface Entry {
  name: string;
  run: (src: string) => Promise<ProcessMeasure>;
}

function hindsightAt(concurrency: number, role: string): Entry {
  return {
    name: `hindsight, ${role}: ${concurrency} at once`,
    run: (src) => {
      const data = join(scratch, 'data');
      execFileSync(process.execPath, [cli, 'config', 'set', 'copyConcurrency', String(concurrency), '--data-dir', data], { stdio: 'ignore' });
      dropPageCache();
      return measureProcess(process.execPath, [cli, 'open', src, '--data-dir', data, '--json']);
    },
  };
}

const copyEntry: Entry = {
  name: 'cp -a',
  run: (src) => {
    dropPageCache();
    return cpTool.run(src, scratch);
  },
};
const entries = [copyEntry, hindsightAt(cores, 'cores'), hindsightAt(2, 'two')];
const shapes = values.shapes.split(',').filter(Boolean);
const results = new Map(shapes.map((shape) => [shape, new Map(entries.map((e) => [e.name, [] as ProcessMeasure[]]))]));

for (let round = 0; round < rounds; round++) {
  for (const shape of shapes) {
    const src = resolve(values.fixtures, shape);
    for (const entry of entries.map((_, i) => entries[(i + round) % entries.length]!)) {
      rmSync(scratch, { recursive: true, force: true });
      mkdirSync(scratch, { recursive: true });
      const sample = await entry.run(src);
      if (sample.code !== 0) throw new Error(`${entry.name} on ${shape} failed (exit ${sample.code}): ${sample.stderr.trim()}`);
      results.get(shape)!.get(entry.name)!.push(sample);
      process.stderr.write(`round ${round + 1}/${rounds} ${shape} ${entry.name}: ${(sample.wallMs / 1000).toFixed(2)} s\n`);
    }
  }
}
rmSync(scratch, { recursive: true, force: true });

const ratio = (base: ProcessMeasure[], head: ProcessMeasure[]) => {
  const c = comparePaired(
    base.map((m) => m.wallMs),
    head.map((m) => m.wallMs),
  );
  return `${c.ratio.toFixed(2)}x (${c.low.toFixed(2)}-${c.high.toFixed(2)})`;
};
console.log(
  `many cores: ${availableParallelism()} cores available, concurrency ${cores} against 2, ${rounds} rounds, load at end ${loadavg()[0]!.toFixed(1)}\n`,
);
for (const [shape, byEntry] of results) {
  const cp = byEntry.get(copyEntry.name)!;
  console.log(`### ${shape}\n\n| entry | median wall s | median CPU s | x cp -a (wall, 95% CI) |\n| --- | ---: | ---: | --- |`);
  for (const [name, samples] of byEntry) {
    const wall = median(samples.map((m) => m.wallMs)) / 1000;
    const cpu = median(samples.map((m) => m.cpuMs)) / 1000;
    console.log(`| ${name} | ${wall.toFixed(2)} | ${cpu.toFixed(2)} | ${name === copyEntry.name ? '1' : ratio(cp, samples)} |`);
  }
  const many = byEntry.get(entries[1]!.name)!;
  const two = byEntry.get(entries[2]!.name)!;
  console.log(`\n${cores} at once against 2 at once (wall): ${ratio(two, many)} (target: <= 1/1.6 = 0.63x)\n`);
}
