import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { makeCloser } from '../../../electron/history/restore/backgroundCloser.js';
import { sharedCopyPool } from '../../../electron/history/store/copyPool.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import type { BenchCase, BenchSuite } from '../benchSuite.js';
import { ensureFixture } from '../fixtures/generateFixture.js';
import { measureProcess } from '../measureProcess.js';

// A bulk restore of the 4,005-file fixture, in process: every file of the project is deleted,
// then the baseline is restored (the capture rescan that records the deletions, then 4,005 files
// written through temps, closes and renames). Next to it, `cp -a` of the same folder into an
// empty one: the floor for putting those bytes and modes on disk.
//   restore-4005      closes inline (the Linux default)
//   restore-4005-bg   closes through the background closer (HINDSIGHT_BACKGROUND_CLOSE=on)
//   cp-a-4005         cp -a
// Figures: restoreMs (the whole restore call), writeMs (the writing part alone), rmMs (the untimed
// deletion before it is in the row's ms too), cpuMs (user + sys, this process or cp's), cpMs.

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));
process.env.HINDSIGHT_COPY_WORKER ??= here('../copyWorker.js');
const fixtures = () => resolve(process.env.HINDSIGHT_BENCH_FIXTURES ?? '.bench/fixtures');

function emptyFolder(dir: string): number {
  const started = performance.now();
  for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true });
  return performance.now() - started;
}

function restoreCase(background: boolean): BenchCase {
  let engine: HistoryEngine;
  let projectId = '';
  let base = '';
  let root = '';
  let baseline = 0;
  return {
    name: background ? 'restore-4005-bg' : 'restore-4005',
    iterations: 3,
    setup: async () => {
      const src = ensureFixture(fixtures(), 'seed-4005');
      base = mkdtempSync(join(fixtures(), '..', 'restore-'));
      root = join(base, 'project');
      execFileSync('cp', ['-a', src, root]);
      engine = new HistoryEngine(join(base, 'data'));
      ({ projectId } = await engine.open(root));
      baseline = engine.store(projectId).index.snapshotReads.baselineId()!;
    },
    run: async () => {
      const rmMs = emptyFolder(root);
      resetTrace();
      const cpu = process.cpuUsage();
      const started = performance.now();
      const result = await engine.restoreSnapshot(projectId, baseline, { closer: makeCloser({ background }) });
      const restoreMs = performance.now() - started;
      const used = process.cpuUsage(cpu);
      if (result.recreated !== 4005) throw new Error(`expected 4,005 files recreated, got ${result.recreated}`);
      return {
        restoreMs,
        writeMs: result.ms,
        cpuMs: (used.user + used.system) / 1000,
        rmMs,
        files: result.recreated,
        backgroundCloses: counter('close.background'),
      };
    },
    teardown: async () => {
      engine.close();
      await sharedCopyPool().close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

function cpCase(): BenchCase {
  let src = '';
  let base = '';
  return {
    name: 'cp-a-4005',
    iterations: 3,
    setup: () => {
      src = ensureFixture(fixtures(), 'seed-4005');
      base = mkdtempSync(join(fixtures(), '..', 'cp-'));
    },
    run: async () => {
      const target = join(base, 'copy');
      rmSync(target, { recursive: true, force: true });
      mkdirSync(target);
      const measured = await measureProcess('cp', ['-a', `${src}/.`, target]);
      if (measured.code !== 0) throw new Error(`cp -a failed: ${measured.stderr}`);
      return { cpMs: measured.wallMs, cpuMs: measured.cpuMs };
    },
    teardown: () => rmSync(base, { recursive: true, force: true }),
  };
}

const suite: BenchSuite = {
  name: 'restore',
  cases: () => [restoreCase(false), restoreCase(true), cpCase()],
};

export default suite;
