import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setSetting } from '../../../electron/history/config/projectEdits.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import type { ProjectStore } from '../../../electron/history/project/projectStore.js';
import { sharedCopyPool } from '../../../electron/history/store/copyPool.js';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { counter } from '../../../electron/history/trace.js';
import { storeBytes } from '../../../electron/history/store/storeBytes.js';
import type { PruneResult } from '../../../shared/contract/values.js';
import type { BenchCase, BenchSuite } from '../benchSuite.js';
import { ensureFixture } from '../fixtures/generateFixture.js';
import { seededRandom } from '../fixtures/seededRandom.js';

// A simulated year of work on seed-4005 with an injected clock, then prunes of that history:
//   read-history   reading every snapshot, version and blob row a prune plans from: the floor a
//                  prune cannot go below (the reference for the two below)
//   prune-dry-run  the plan of the year's history, snapshot by snapshot (issue: <= 1 s)
//   prune          the prune itself: one simulated day more, then the plan (made in the prune
//                  planner's worker thread) applied in chunks, one transaction each, and the
//                  blobs past their grace period deleted (issue: <= 5 s)
//   first-copy-alone / first-copy-beside-prune, change-alone / change-beside-prune
//                  a first copy of seed-4005 into the same engine and a recorded change of the
//                  year's project, alone and while a prune of the year runs beside them (issue:
//                  not slowed; compared in the same run, no verdict). Before each, untimed, a
//                  simulated day of work, so the prune beside them plans and applies chunks.
// The year: every working minute (9 to 17, Monday to Friday) one or two files of a working set of
// 40 are edited (a line added), recorded as a snapshot at that minute; a checkpoint (pinned) every
// evening; a prune every simulated evening, as the app's hourly prune would have done by then,
// with the budget HINDSIGHT_BENCH_RETENTION_BUDGET (default 256 MiB). The last 7 days are also
// committed to git every simulated hour (the folder is a git repository), so the uncommitted rule
// runs its git calls. Each row reports the versions and blob bytes at the end and their ratio to
// the budget (the issue: within 5%). HINDSIGHT_BENCH_RETENTION_DAYS (default 365) shortens it.

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));
process.env.HINDSIGHT_COPY_WORKER ??= here('../copyWorker.js');
const fixtures = () => resolve(process.env.HINDSIGHT_BENCH_FIXTURES ?? '.bench/fixtures');
const DAYS = Number(process.env.HINDSIGHT_BENCH_RETENTION_DAYS ?? 365);
const BUDGET = Number(process.env.HINDSIGHT_BENCH_RETENTION_BUDGET ?? 256 * 1024 ** 2);
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

interface Year {
  engine: HistoryEngine;
  projectId: string;
  store: ProjectStore;
  root: string;
  data: string;
  /** The simulated clock after the year. */
  end: number;
  versions: number;
  setupMs: number;
}

let year: Promise<Year> | undefined;

/** Builds the year once per process (every case of a round uses it). */
function simulatedYear(): Promise<Year> {
  year ??= buildYear();
  return year;
}

async function buildYear(): Promise<Year> {
  const started = performance.now();
  const source = ensureFixture(fixtures(), 'seed-4005');
  const root = mkdtempSync(join(fixtures(), '..', 'retention-year-'));
  cpSync(source, root, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', root, '-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...args], { stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'fixture');
  const data = mkdtempSync(join(fixtures(), '..', 'retention-data-'));
  const engine = new HistoryEngine(data);
  await engine.config.editConfig(setSetting('historyBudget', BUDGET));
  const { projectId } = await engine.open(root);
  const store = engine.store(projectId);
  const now = Date.now();
  // The baseline was recorded now: it belongs at the start of the year (a snapshot's time never
  // runs backwards for the policy, so a baseline left at now would make the whole year "now").
  const db = new Database(historyDbPath(store.storeDir));
  db.prepare("UPDATE snapshots SET at = ? WHERE kind = 'baseline'").run(now - DAYS * DAY - DAY);
  db.close();
  const paths = store.index.files
    .filesAt()
    .filter((f) => f.path.endsWith('.ts'))
    .map((f) => f.path);
  const random = seededRandom(4005);
  const contents = new Map<string, string>();
  // The year ends now, so git's commits (made now) fall in the last week of it.
  let clock = now - DAYS * DAY;
  const firstDay = new Date(clock);
  firstDay.setHours(0, 0, 0, 0);
  let versions = 0;
  let working: string[] = [];
  for (let day = 0; day < DAYS; day++) {
    const midnight = firstDay.getTime() + day * DAY;
    if (day % 30 === 0) working = Array.from({ length: 40 }, () => paths[Math.floor(random() * paths.length)]!);
    const weekday = new Date(midnight).getDay();
    if (weekday === 0 || weekday === 6) continue;
    const lastWeek = now - midnight < 7 * DAY;
    for (let minute = 9 * 60; minute < 17 * 60; minute++) {
      clock = midnight + minute * MIN;
      const edited = new Set(Array.from({ length: random() < 0.67 ? 2 : 1 }, () => working[Math.floor(random() * working.length)]!));
      const newVersions = [...edited].map((path) => {
        const text = `${contents.get(path) ?? readFileSync(join(root, path), 'utf8')}// edit ${day}:${minute}\n`;
        contents.set(path, text);
        const bytes = Buffer.from(text);
        const { hash } = storeBytes(bytes, store.blobs.dir);
        if (lastWeek) writeFileSync(join(root, path), bytes);
        return { path, hash, mode: 0o644, size: bytes.length, type: 'file' as const };
      });
      store.index.commitSnapshot({
        snapshot: { kind: 'change', at: clock },
        versions: newVersions,
        blobs: newVersions.map((v) => ({ hash: v.hash, size: v.size })),
      });
      versions += newVersions.length;
      if (lastWeek && minute % 60 === 59) git('commit', '-qam', `hour ${day}:${minute}`);
    }
    store.index.commitSnapshot({ snapshot: { kind: 'checkpoint', at: clock + MIN, label: `End of day ${day}` }, versions: [], blobs: [], pin: true });
    await engine.prune(projectId, { now: clock + 2 * MIN });
  }
  return { engine, projectId, store, root, data, end: clock + 2 * MIN, versions, setupMs: Math.round(performance.now() - started) };
}

function figures(y: Year, result?: PruneResult): Record<string, number> {
  const totals = y.store.index.blobRecords.historyTotals();
  // Bytes on disk, as the budget counts them (marked blobs are counted on disk too).
  const blobBytes = y.store.index.blobRecords.blobTotals().storedBytes - y.store.index.prune.markedBlobs().bytes;
  return {
    days: DAYS,
    versionsRecorded: y.versions,
    versionsKept: totals.versions,
    snapshotsKept: totals.snapshots,
    blobBytes,
    budget: BUDGET,
    budgetRatio: Math.round((blobBytes / BUDGET) * 1000) / 1000,
    ...(result && { removedVersions: result.versions, removedSnapshots: result.snapshots, budgetMet: result.budgetMet ? 1 : 0 }),
    setupMs: y.setupMs,
  };
}

/**
 * A first copy of a fresh copy of seed-4005 into the year's engine (the app's case: one history
 * process), timed alone or while a prune of the year's history runs beside it.
 */
function firstCopyCase(name: string, besidePrune: boolean): BenchCase {
  let folder = '';
  return {
    name,
    setup: async () => {
      await simulatedYear();
      folder = mkdtempSync(join(fixtures(), '..', 'retention-copy-'));
      cpSync(ensureFixture(fixtures(), 'seed-4005'), folder, { recursive: true });
    },
    run: async () => {
      const y = await simulatedYear();
      aDayOfWork(y);
      const pruning = besidePrune ? timed(y.engine.prune(y.projectId, { now: y.end })) : undefined;
      const started = performance.now();
      const { projectId } = await y.engine.open(folder);
      const copyMs = performance.now() - started;
      const pruneMs = pruning ? await pruning : 0;
      await y.engine.closeProject(projectId);
      return { copyMs, pruneMs };
    },
    teardown: () => rmSync(folder, { recursive: true, force: true }),
  };
}

/** A change to one file of the year's project recorded (a rescan), alone or while a prune runs. */
function changeCase(name: string, besidePrune: boolean): BenchCase {
  let edit = 0;
  return {
    name,
    setup: async () => void (await simulatedYear()),
    run: async () => {
      const y = await simulatedYear();
      aDayOfWork(y);
      writeFileSync(join(y.root, 'index.html'), `<p>recorded change ${name} ${edit++}</p>\n`);
      const pruning = besidePrune ? timed(y.engine.prune(y.projectId, { now: y.end })) : undefined;
      const started = performance.now();
      const result = await y.engine.rescan(y.projectId);
      const changeMs = performance.now() - started;
      const pruneMs = pruning ? await pruning : 0;
      return { changeMs, pruneMs, recorded: result.changed };
    },
    iterations: 5,
  };
}

/**
 * A simulated day of work on index.html since the last prune (a snapshot a minute for 8 hours),
 * then the clock a day on: the next prune thins that day, so it has chunks to apply.
 */
function aDayOfWork(y: Year): void {
  for (let minute = 0; minute < 8 * 60; minute++) {
    const path = 'index.html';
    const bytes = Buffer.from(`<p>edit ${y.end} ${minute}</p>\n`);
    const { hash } = storeBytes(bytes, y.store.blobs.dir);
    y.end += MIN;
    y.store.index.commitSnapshot({
      snapshot: { kind: 'change', at: y.end },
      versions: [{ path, hash, mode: 0o644, size: bytes.length, type: 'file' }],
      blobs: [{ hash, size: bytes.length }],
    });
  }
  y.end += DAY;
}

async function timed(work: Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work;
  return performance.now() - started;
}

const cases: BenchCase[] = [
  // Not slowed while a prune runs: each pair in the same round, alone first then beside a prune.
  firstCopyCase('first-copy-alone', false),
  firstCopyCase('first-copy-beside-prune', true),
  changeCase('change-alone', false),
  changeCase('change-beside-prune', true),
  {
    name: 'read-history',
    setup: async () => void (await simulatedYear()),
    run: async () => {
      const y = await simulatedYear();
      y.store.index.prune.pruneRows();
      return figures(y);
    },
  },
  {
    name: 'prune-dry-run',
    setup: async () => void (await simulatedYear()),
    run: async () => {
      const y = await simulatedYear();
      return figures(y, await y.engine.prune(y.projectId, { dryRun: true, now: y.end }));
    },
  },
  {
    name: 'prune',
    // A day of work since the last prune, so the timed prune has something to do.
    setup: async () => aDayOfWork(await simulatedYear()),
    run: async () => {
      const y = await simulatedYear();
      const chunks = counter('prune.chunks');
      const result = await y.engine.prune(y.projectId, { now: y.end });
      // Chunks applied: one write transaction each.
      return { ...figures(y, result), chunks: counter('prune.chunks') - chunks };
    },
    teardown: async () => {
      const y = await simulatedYear();
      y.engine.close();
      await sharedCopyPool().close();
      for (const dir of [y.root, y.data]) if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    },
  },
];

const suite: BenchSuite = { name: 'retention', cases: () => cases };
export default suite;
