import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchSuite } from '../benchSuite.js';
import { ensureFixture } from '../fixtures/generateFixture.js';
import { measureProcess } from '../measureProcess.js';
import { dropPageCache } from '../pageCache.js';
import type { DriverReport } from '../firstCopy/scenarios.js';

// The first-copy scenarios as a suite, for bench:compare: each case runs this build's own CLI or
// in-process driver (found beside the built suite) on a cold page cache when it can be dropped.
//   open-4005   (a) the CLI's first open of 4,005 files, whole process
//   eleven-4005 (b, c) 11 projects at once in one process, side stat every 5 ms
//   open-50005  (d) the CLI's first open of 50,005 files

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));
const fixtures = () => resolve(process.env.HINDSIGHT_BENCH_FIXTURES ?? '.bench/fixtures');
const cli = () => process.env.HINDSIGHT_BENCH_CLI ?? here('../cli/hindsight.js');

function cliOpen(name: string, shape: 'seed-4005' | 'seed-50005') {
  let src = '';
  let data = '';
  return {
    name,
    setup: () => {
      src = ensureFixture(fixtures(), shape);
      data = mkdtempSync(join(fixtures(), '..', 'data-'));
      dropPageCache();
    },
    run: async () => {
      const measured = await measureProcess(process.execPath, [cli(), 'open', src, '--data-dir', data, '--json']);
      if (measured.code !== 0) throw new Error(`hindsight open failed: ${measured.stderr}`);
      return { cpuMs: measured.cpuMs, peakRssMiB: measured.maxRssKb / 1024 };
    },
    teardown: () => rmSync(data, { recursive: true, force: true }),
  };
}

const suite: BenchSuite = {
  name: 'firstCopy',
  cases: () => {
    let srcs: string[] = [];
    let data = '';
    return [
      cliOpen('open-4005', 'seed-4005'),
      {
        name: 'eleven-4005',
        setup: () => {
          srcs = Array.from({ length: 11 }, (_, i) => ensureFixture(fixtures(), 'seed-4005', `seed-4005-project${i + 1}`));
          data = mkdtempSync(join(fixtures(), '..', 'data-'));
          dropPageCache();
        },
        run: async () => {
          const measured = await measureProcess(process.execPath, [here('../openDriver.js'), '--data-dir', data, ...srcs]);
          if (measured.code !== 0) throw new Error(`the open driver failed: ${measured.stderr}`);
          const report = JSON.parse(measured.stdout.trim().split('\n').at(-1)!) as DriverReport;
          return {
            medianReadyMs: report.medianReadyMs,
            allDoneMs: report.allDoneMs,
            statP99Ms: report.stat.p99Ms,
            statMaxMs: report.stat.maxMs,
            peakRssMiB: measured.maxRssKb / 1024,
          };
        },
        teardown: () => rmSync(data, { recursive: true, force: true }),
      },
      cliOpen('open-50005', 'seed-50005'),
    ];
  },
};

export default suite;
