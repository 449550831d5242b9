import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { sharedCopyPool } from '../../../electron/history/store/copyPool.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import type { MissingDirStrategy } from '../../../electron/history/versions/missingDirCache.js';
import type { BenchCase, BenchSuite } from '../benchSuite.js';
import { ensureFixture } from '../fixtures/generateFixture.js';
import { measureProcess } from '../measureProcess.js';

// The rescan that runs on every open, in process (the engine bundled into this suite):
//   no-change-50005   a rescan of the 50,005-file fixture that finds nothing changed (the folder
//                     is also a git repository, so .git is there and skipped, as for git-status)
//   git-status-50005  `git status --porcelain` on that same folder: the yardstick
//   deleted-2000      a project whose 2,000-file folder (deep paths) was deleted: the rescan that
//                     records it; reports rescan.lstat (exact) and the rescan's own time
//   deleted-2000-parent  the same with git's old immediate-parent cache, for comparison
// Fixtures live in HINDSIGHT_BENCH_FIXTURES (default .bench/fixtures).

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));
process.env.HINDSIGHT_COPY_WORKER ??= here('../copyWorker.js');
const fixtures = () => resolve(process.env.HINDSIGHT_BENCH_FIXTURES ?? '.bench/fixtures');

/** The 50,005-file fixture as a git repository with everything committed (made once). */
function gitFixture(): string {
  const dir = ensureFixture(fixtures(), 'seed-50005', 'seed-50005-git');
  if (!existsSync(join(dir, '.git'))) {
    const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-q', '-m', 'fixture');
  }
  return dir;
}

/** Waits out the racy window so a no-change rescan is a true no-change rescan. */
async function settled(engine: HistoryEngine, root: string): Promise<string> {
  const { projectId } = await engine.open(root);
  await new Promise((r) => setTimeout(r, 2100));
  await engine.rescan(projectId);
  return projectId;
}

function noChange(): BenchCase {
  let engine: HistoryEngine;
  let projectId = '';
  let root = '';
  let data = '';
  return {
    name: 'no-change-50005',
    iterations: 5,
    setup: async () => {
      root = gitFixture();
      data = mkdtempSync(join(fixtures(), '..', 'data-'));
      engine = new HistoryEngine(data);
      projectId = await settled(engine, root);
    },
    run: async () => {
      resetTrace();
      const cpu = process.cpuUsage();
      const result = await engine.rescan(projectId);
      const used = process.cpuUsage(cpu);
      if (result.hashed !== 0) throw new Error(`a no-change rescan hashed ${result.hashed} files`);
      return {
        cpuMs: (used.user + used.system) / 1000,
        paths: result.paths,
        hashed: result.hashed,
        walkLstat: counter('walk.lstat'),
        rescanLstat: counter('rescan.lstat'),
      };
    },
    teardown: async () => {
      engine.close();
      await sharedCopyPool().close();
      rmSync(data, { recursive: true, force: true });
    },
  };
}

function gitStatus(): BenchCase {
  let root = '';
  return {
    name: 'git-status-50005',
    iterations: 5,
    setup: () => {
      root = gitFixture();
      execFileSync('git', ['-C', root, 'status', '--porcelain']); // index refreshed, caches warm
    },
    run: async () => {
      const measured = await measureProcess('git', ['-C', root, 'status', '--porcelain']);
      if (measured.code !== 0) throw new Error(`git status failed: ${measured.stderr}`);
      return { cpuMs: measured.cpuMs, changedLines: measured.stdout.trim() === '' ? 0 : measured.stdout.trim().split('\n').length };
    },
  };
}

/** 2,000 files deep under gone/ (gone/aA/bB/cC/d/fF.txt), plus a few kept beside it. */
function writeDeepProject(root: string): void {
  for (let a = 0; a < 10; a++)
    for (let b = 0; b < 10; b++)
      for (let c = 0; c < 10; c++) {
        const dir = join(root, 'gone', `a${a}`, `b${b}`, `c${c}`, 'd');
        mkdirSync(dir, { recursive: true });
        for (let f = 0; f < 2; f++) writeFileSync(join(dir, `f${f}.txt`), `file ${a}${b}${c}${f}\n`);
      }
  mkdirSync(join(root, 'kept'), { recursive: true });
  for (let i = 0; i < 5; i++) writeFileSync(join(root, 'kept', `k${i}.txt`), `kept ${i}\n`);
}

function deletedFolder(strategy: MissingDirStrategy): BenchCase {
  let engine: HistoryEngine;
  let projectId = '';
  let root = '';
  let data = '';
  let parked = '';
  return {
    name: strategy === 'top-most' ? 'deleted-2000' : 'deleted-2000-parent',
    iterations: 5,
    setup: async () => {
      const base = mkdtempSync(join(fixtures(), '..', 'deleted-'));
      root = join(base, 'project');
      parked = join(base, 'parked');
      mkdirSync(root);
      writeDeepProject(root);
      data = join(base, 'data');
      engine = new HistoryEngine(data);
      projectId = await settled(engine, root);
    },
    run: async () => {
      // The folder is moved out of the project (one rename: the same as deleting it, as far as
      // the project can tell), the rescan records 2,000 deletions, then it comes back.
      renameSync(join(root, 'gone'), parked);
      resetTrace();
      const started = performance.now();
      const result = await engine.rescan(projectId, { strategy });
      const rescanMs = performance.now() - started;
      const lstat = counter('rescan.lstat');
      const paths = counter('rescan.paths');
      if (result.changed !== 2000) throw new Error(`expected 2,000 deletions, got ${result.changed}`);
      renameSync(parked, join(root, 'gone'));
      await engine.rescan(projectId);
      return { rescanMs, lstat, paths };
    },
    teardown: async () => {
      engine.close();
      await sharedCopyPool().close();
      rmSync(join(root, '..'), { recursive: true, force: true });
    },
  };
}

const suite: BenchSuite = {
  name: 'rescan',
  cases: () => [noChange(), gitStatus(), deletedFolder('top-most'), deletedFolder('parent')],
};

export default suite;
