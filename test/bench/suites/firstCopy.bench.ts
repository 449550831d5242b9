import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchSuite } from '../benchSuite.js';
import { execFileSync } from 'node:child_process';
import { ensureFixture, type FixtureShape } from '../fixtures/generateFixture.js';
import { measureProcess } from '../measureProcess.js';
import { dropPageCache } from '../pageCache.js';
import type { DriverReport } from '../firstCopy/scenarios.js';

// The first-copy scenarios as a suite, for bench:compare: each case runs this build's own CLI or
// in-process driver (found beside the built suite) on a cold page cache when it can be dropped.
//   open-4005   (a) the CLI's first open of 4,005 files, whole process
//   eleven-4005 (b, c) 11 projects at once in one process, side stat every 5 ms
//   open-50005  (d) the CLI's first open of 50,005 files
//   open-srctree, inprocess-srctree  (f) a real-source-tree-shaped folder: the CLI, and in one process
//   inprocess-4005, inprocess-50005  one first copy in one process: allDoneMs, and mainThreadMs,
//               the CPU of the main thread alone (the critical path the workers cannot shorten)
//   open-4x256  (e) four 256 MiB files: time and peak RSS
//   reopen-srctree, reopen-inprocess-srctree, git-status-srctree  (g) reopening with nothing
//               changed (first copy untimed in setup), whole CLI process and in one process, and
//               `git status` on the same tree: the reference, measured in the same run

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));
const fixtures = () => resolve(process.env.HINDSIGHT_BENCH_FIXTURES ?? '.bench/fixtures');
const cli = () => process.env.HINDSIGHT_BENCH_CLI ?? here('../cli/hindsight.js');

function cliOpen(name: string, shape: FixtureShape, options: { reopen?: boolean } = {}) {
  let src = '';
  let data = '';
  return {
    name,
    setup: () => {
      src = ensureFixture(fixtures(), shape);
      data = mkdtempSync(join(fixtures(), '..', 'data-'));
      if (options.reopen) execFileSync(process.execPath, [cli(), 'open', src, '--data-dir', data, '--json'], { stdio: 'ignore' });
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
      cliOpen('open-srctree', 'src-tree'),
      driverCase('inprocess-srctree', 'src-tree'),
      driverCase('inprocess-4005', 'seed-4005'),
      driverCase('inprocess-50005', 'seed-50005'),
      cliOpen('open-4x256', 'big-4x256'),
      cliOpen('reopen-srctree', 'src-tree-git', { reopen: true }),
      driverCase('reopen-inprocess-srctree', 'src-tree-git', ['--reopen']),
      {
        name: 'git-status-srctree',
        setup: () => void ensureFixture(fixtures(), 'src-tree-git'),
        run: async () => {
          const measured = await measureProcess('git', ['status', '--porcelain'], { cwd: ensureFixture(fixtures(), 'src-tree-git') });
          if (measured.code !== 0) throw new Error(`git status failed: ${measured.stderr}`);
          return { cpuMs: measured.cpuMs };
        },
      },
    ];
  },
};

/** One folder opened in one process (the app's case: Node and the engine already up); allDoneMs is the open alone. */
function driverCase(name: string, shape: FixtureShape, extra: string[] = []) {
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
      const measured = await measureProcess(process.execPath, [here('../openDriver.js'), '--data-dir', data, ...extra, src]);
      if (measured.code !== 0) throw new Error(`the open driver failed: ${measured.stderr}`);
      const report = JSON.parse(measured.stdout.trim().split('\n').at(-1)!) as DriverReport;
      const figures: Record<string, number> = { allDoneMs: report.allDoneMs, statP99Ms: report.stat.p99Ms, peakRssMiB: measured.maxRssKb / 1024 };
      // A build whose driver does not read its threads' CPU (before these figures) leaves them out.
      if (report.mainThreadMs !== undefined) figures.mainThreadMs = report.mainThreadMs;
      if (report.cpuMs !== undefined) figures.cpuMs = report.cpuMs;
      return figures;
    },
    teardown: () => rmSync(data, { recursive: true, force: true }),
  };
}

export default suite;
