import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { machineInfo } from '../firstCopy/machineInfo.js';
import { formatTable, FULL_SIZES, QUICK_SIZES, type SizeFigures } from './scaleFigures.js';
import { measureSize } from './scaleRun.js';

// `npm run bench:scale -- [--sizes 5000,50005,500000] [--rounds N] [--quick] [--fixtures DIR] [--scratch DIR]`
// Issue 33 target 4, linear to 500,000 files: for each size of the seed shape, the first copy
// (whole CLI against `cp -a`, fresh destinations, cold cache where possible) and its peak RSS, the
// reopen in process against `git status` of a git copy, the viewer's first tree page and a file's
// first versions in process, and `files`, `log` and `search` through the whole CLI with their peak
// RSS. Prints one table: each figure per size, how it grows from one size to the next, and its
// target met or not. --quick measures tiny folders once: a dry run of the rig, its figures mean nothing.

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    sizes: { type: 'string' },
    rounds: { type: 'string' },
    fixtures: { type: 'string', default: '.bench/fixtures' },
    scratch: { type: 'string', default: '.bench/scratch/scale' },
    cli: { type: 'string', default: fileURLToPath(new URL('./cli/hindsight.js', import.meta.url)) },
  },
});

function sizes(): number[] {
  if (values.sizes === undefined) return [...(values.quick ? QUICK_SIZES : FULL_SIZES)];
  const list = values.sizes.split(',').map(Number);
  if (list.some((n) => !Number.isInteger(n) || n < 6)) throw new Error('--sizes takes whole numbers of at least 6, comma-separated (e.g. 5000,50005).');
  return list.sort((a, b) => a - b);
}

const rounds = values.rounds === undefined ? (values.quick ? 1 : 3) : Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number of at least 1.');

const options = { cli: resolve(values.cli), fixtures: resolve(values.fixtures), scratch: resolve(values.scratch), rounds };
const measured: SizeFigures[] = [];
let cache = 'warm';
for (const files of sizes()) {
  console.error(`seed shape, ${files} files: ${rounds} round(s)…`);
  const run = await measureSize(files, options);
  cache = run.cache;
  measured.push(run.figures);
}
const machine = machineInfo(options.fixtures);
console.log(
  `Scale (issue 33, target 4): ${JSON.stringify(machine)}, load ${loadavg()[0]!.toFixed(1)}, cache ${cache}, ${rounds} round(s)${values.quick ? ', --quick: a dry run' : ''}`,
);
console.log(formatTable(measured));
