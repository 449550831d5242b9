import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { PruneResult } from '../../../shared/contract/values.js';
import { setSetting } from '../../../electron/history/config/projectEdits.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { blobPath, historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { MAX_PLANS } from '../../../electron/history/retention/prune.js';
import { storeBytes } from '../../../electron/history/store/storeBytes.js';
import { DEFAULT_RETENTION } from '../../../shared/retention.js';
import { cliJson, runCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { git, GIT_ENV, makeRepo } from '../git/gitFixture.js';
import { ageHistory, referencedBlobsPresent } from './pruneHelpers.js';

// A prune on a real store: versions recorded from real files, their times moved back in
// history.db (the only way to have a month of history in a test), then pruned through the
// engine and the CLI. Every kept snapshot restores what it did before; blob files go only after
// the grace period and only while no version names them; verify stays clean.

const HOUR = 3_600_000;

async function recordedHistory(edits: number) {
  const root = realpathSync(tempDir('hindsight-prune-'));
  writeTree(root, { 'a.txt': 'a-0', 'b.txt': 'b-0', 'keep/c.txt': 'c' });
  const dataDir = tempDir('hindsight-data-');
  const engine = new HistoryEngine(dataDir);
  onTestFinished(() => engine.close());
  const { projectId } = await engine.open(root);
  for (let i = 1; i <= edits; i++) {
    writeFileSync(join(root, i % 2 ? 'a.txt' : 'b.txt'), `${i % 2 ? 'a' : 'b'}-${i}`);
    await engine.rescan(projectId);
  }
  return { root, dataDir, engine, projectId };
}

describe('prune', () => {
  it('thins old history by the policy, keeps every kept snapshot exact, and deletes blobs only after the grace period', async () => {
    const { root, engine, projectId, dataDir } = await recordedHistory(30);
    const store = engine.store(projectId);
    // 31 snapshots, one every 6 hours back from now: the last day kept whole, one per hour before.
    ageHistory(historyDbPath(store.storeDir), (i, count) => Date.now() - (count - 1 - i) * 6 * HOUR);
    const before = new Map(engine.log(projectId).map((s) => [s.snapshotId, engine.files(projectId, s.snapshotId)]));
    await engine.config.editConfig(setSetting('retention', { ...DEFAULT_RETENTION, hourly: 0, daily: 2, uncommittedDays: 0 }));

    const preview = await engine.prune(projectId, { dryRun: true });
    expect(preview.decisions).toHaveLength(31);
    expect(engine.log(projectId)).toHaveLength(31);
    const removed = preview.decisions!.filter((d) => !d.kept);
    expect(removed.length).toBeGreaterThan(0);
    expect(removed.every((d) => d.why === 'thinned')).toBe(true);

    // Applied in several chunks, planned in the worker: this thread never plans.
    process.env.HINDSIGHT_PRUNE_CHUNK_ROWS = '4';
    onTestFinished(() => void delete process.env.HINDSIGHT_PRUNE_CHUNK_ROWS);
    resetTrace();
    const mine = getPriority(0);
    const done = await engine.prune(projectId);
    expect([counter('prune.plans'), counter('prune.workerPlans'), counter('prune.replans')]).toEqual([0, 1, 0]);
    // The planner thread at the lowest priority (on Linux, where a thread's priority is its own), and this thread not.
    if (process.platform === 'linux') expect(counter('prune.lowPriorityPlans')).toBe(1);
    expect(getPriority(0)).toBe(mine);
    expect(counter('prune.chunks')).toBeGreaterThan(2);
    expect(done).toMatchObject({ dryRun: false, snapshots: removed.length, versions: preview.versions, blobs: preview.blobs, bytesFreed: preview.bytesFreed });
    expect(done.keptBecause).toEqual(preview.keptBecause);
    expect(done.deletedBlobs).toBe(0);
    expect(done.waitingBlobs).toBe(preview.blobs);
    const kept = engine.log(projectId);
    expect(kept.map((s) => s.snapshotId)).toEqual(preview.decisions!.filter((d) => d.kept).map((d) => d.snapshotId));
    expect(kept[0]!.kind).toBe('baseline');
    for (const s of kept) expect(engine.files(projectId, s.snapshotId), `snapshot ${s.snapshotId}`).toEqual(before.get(s.snapshotId));
    expect((await engine.verify(projectId)).ok).toBe(true);

    // Within the grace period the files stay; after it they go, and verify is still clean.
    const marked = unreferencedHashes(historyDbPath(store.storeDir));
    expect(marked.length).toBe(preview.blobs);
    expect(marked.every((hash) => existsSync(blobPath(store.blobs.dir, hash)))).toBe(true);
    const early = await engine.prune(projectId, { now: Date.now() + 59 * 60_000 });
    expect(early.deletedBlobs).toBe(0);
    const late = await engine.prune(projectId, { now: Date.now() + 61 * 60_000 });
    expect(late.deletedBlobs).toBe(marked.length);
    expect(marked.some((hash) => existsSync(blobPath(store.blobs.dir, hash)))).toBe(false);
    expect((await engine.verify(projectId)).ok).toBe(true);
    expect(referencedBlobsPresent(dataDir, root)).toEqual([]);
    // Restoring the oldest kept snapshot writes exactly what it held.
    await engine.restoreSnapshot(projectId, kept[0]!.snapshotId, { deleteAdded: true });
    const oldest = before.get(kept[0]!.snapshotId)!;
    for (const f of oldest) expect(readFileSync(join(root, f.path), 'utf8').length).toBe(f.size);
  });

  it('plans at most MAX_PLANS times while changes keep coming, stops consistent, and the next prune finishes', async () => {
    const { root, engine, projectId, dataDir } = await recordedHistory(12);
    const store = engine.store(projectId);
    ageHistory(historyDbPath(store.storeDir), (i, count) => Date.now() - (count - 1 - i) * 30 * HOUR);
    await engine.config.editConfig(setSetting('retention', { ...DEFAULT_RETENTION, keepAllHours: 0, hourly: 0, daily: 0, weekly: 0, uncommittedDays: 0 }));
    const snapshots = engine.log(projectId).length;
    // A change recorded right before every chunk the prune tries: every plan is stale by then.
    const apply = store.index.prune.applyPruneChunk.bind(store.index.prune);
    let recorded = 0;
    store.index.prune.applyPruneChunk = (...args) => {
      const bytes = Buffer.from(`recorded meanwhile ${++recorded}`);
      const { hash } = storeBytes(bytes, store.blobs.dir);
      store.index.commitSnapshot({
        snapshot: { kind: 'change', at: Date.now() },
        versions: [{ path: 'a.txt', hash, mode: 0o644, size: bytes.length, type: 'file' }],
        blobs: [{ hash, size: bytes.length }],
      });
      return apply(...args);
    };
    resetTrace();
    const stopped = await engine.prune(projectId);
    expect([counter('prune.workerPlans'), counter('prune.replans'), counter('prune.chunks'), recorded]).toEqual([MAX_PLANS, MAX_PLANS - 1, 0, MAX_PLANS]);
    expect([stopped.snapshots, stopped.versions, stopped.blobs, stopped.bytesFreed]).toEqual([0, 0, 0, 0]);
    expect(engine.log(projectId)).toHaveLength(snapshots + MAX_PLANS);
    expect((await engine.verify(projectId)).ok).toBe(true);

    store.index.prune.applyPruneChunk = apply;
    const finished = await engine.prune(projectId);
    expect(finished.snapshots).toBeGreaterThan(0);
    expect(engine.log(projectId).length).toBeLessThan(snapshots);
    expect((await engine.readVersion(projectId, 'a.txt', { maxBytes: 100 })).data).toBe(`recorded meanwhile ${MAX_PLANS}`);
    expect(referencedBlobsPresent(dataDir, root)).toEqual([]);
    expect((await engine.verify(projectId)).ok).toBe(true);
  });

  it('a version recorded again with the bytes of a marked blob clears its mark: the blob is never deleted', async () => {
    const { root, engine, projectId } = await recordedHistory(8);
    const store = engine.store(projectId);
    ageHistory(historyDbPath(store.storeDir), (i, count) => Date.now() - (count - 1 - i) * 30 * HOUR);
    await engine.config.editConfig(setSetting('retention', { ...DEFAULT_RETENTION, keepAllHours: 0, hourly: 0, daily: 0, weekly: 0, uncommittedDays: 0 }));
    await engine.prune(projectId);
    const marked = unreferencedHashes(historyDbPath(store.storeDir));
    expect(marked.length).toBeGreaterThan(0);
    // a-1 was a version of a.txt that the prune left unreferenced; a.txt holds it again now.
    writeFileSync(join(root, 'a.txt'), 'a-1');
    await engine.rescan(projectId);
    const after = await engine.prune(projectId, { now: Date.now() + 2 * HOUR });
    expect(after.deletedBlobs).toBe(marked.length - 1);
    expect((await engine.readVersion(projectId, 'a.txt', { maxBytes: 100 })).data).toBe('a-1');
    expect((await engine.verify(projectId)).ok).toBe(true);
  });

  it('takes a collected blob out of the search index: no search finds the text, no index row names it', async () => {
    const root = realpathSync(tempDir('hindsight-prune-'));
    writeTree(root, { 'a.txt': 'the zebracorn was here\n', 'b.txt': 'b-0' });
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    onTestFinished(() => engine.close());
    const { projectId } = await engine.open(root);
    for (let i = 1; i <= 4; i++) {
      writeFileSync(join(root, i % 2 ? 'a.txt' : 'b.txt'), `plain ${i}\n`);
      await engine.rescan(projectId);
    }
    await engine.buildSearchIndex(projectId);
    const search = () => engine.search(projectId, { query: 'zebracorn', regex: false, caseSensitive: false, limit: 50 });
    expect((await search()).results.map((h) => h.path)).toEqual(['a.txt']);
    const gone = engine.versions(projectId, 'a.txt')[0]!.hash!; // oldest first
    const dbFile = historyDbPath(engine.store(projectId).storeDir);
    expect(searchRows(dbFile, gone)).toEqual({ blobs: 1, text: 1 });

    ageHistory(dbFile, (i, count) => Date.now() - (count - 1 - i) * 30 * HOUR);
    await engine.config.editConfig(setSetting('retention', { ...DEFAULT_RETENTION, keepAllHours: 0, hourly: 0, daily: 0, weekly: 0, uncommittedDays: 0 }));
    await engine.prune(projectId);
    // Marked, not yet collected: still in the index (a version naming the bytes again would need it).
    expect(searchRows(dbFile, gone).blobs).toBe(1);
    const late = await engine.prune(projectId, { now: Date.now() + 2 * HOUR });
    expect(late.deletedBlobs).toBeGreaterThan(0);
    expect(existsSync(blobPath(engine.store(projectId).blobs.dir, gone))).toBe(false);
    expect(searchRows(dbFile, gone)).toEqual({ blobs: 0, text: 0 });
    expect((await search()).results).toEqual([]);
    // What is kept is still found.
    expect((await engine.search(projectId, { query: 'plain 3', regex: false, caseSensitive: false, limit: 50 })).results.map((h) => h.path)).toEqual(['a.txt']);
  });

  it('leaves no restore naming a removed version or snapshot, and says again where a snapshot that received folded versions is', async () => {
    const { root, engine, projectId } = await recordedHistory(2);
    const first = engine.versions(projectId, 'a.txt')[0]!; // oldest first: the first copy's
    await engine.restoreFile(projectId, 'a.txt', first.versionId);
    await engine.restoreSnapshot(projectId, first.snapshotId);
    // The snapshot restore is pinned (kept), and names the first copy it restored (removed).
    const restore = engine.log(projectId).find((s) => s.origin.fromSnapshotId === first.snapshotId)!;
    engine.setPin(projectId, { snapshotId: restore.snapshotId }, true);
    writeFileSync(join(root, 'keep/c.txt'), 'c-2');
    await engine.rescan(projectId);
    const restored = engine.versions(projectId, 'a.txt').filter((v) => v.origin.fromVersionId === first.versionId);
    expect(restored.map((v) => v.origin.kind)).toEqual(['restore']);
    const dbFile = historyDbPath(engine.store(projectId).storeDir);
    ageHistory(dbFile, (i, count) => Date.now() - (count - 1 - i) * 30 * HOUR);
    await engine.config.editConfig(setSetting('retention', { ...DEFAULT_RETENTION, keepAllHours: 0, hourly: 0, daily: 0, weekly: 0, uncommittedDays: 0 }));
    const done = await engine.prune(projectId);
    expect(done.snapshots).toBeGreaterThan(0);
    const log = engine.log(projectId);
    expect(log.map((s) => s.snapshotId)).not.toContain(first.snapshotId);
    expect(log.find((s) => s.snapshotId === restore.snapshotId)!.origin).toMatchObject({ kind: 'restore', fromSnapshotId: null });
    const ids = new Set(log.map((s) => s.snapshotId));
    for (const s of log) if (s.origin.fromSnapshotId !== null) expect(ids.has(s.origin.fromSnapshotId), `snapshot ${s.snapshotId}`).toBe(true);
    for (const path of ['a.txt', 'b.txt', 'keep/c.txt']) {
      const versions = engine.versions(projectId, path);
      const versionIds = new Set(versions.map((v) => v.versionId));
      for (const v of versions) if (v.origin.fromVersionId !== null) expect(versionIds.has(v.origin.fromVersionId), `version ${v.versionId}`).toBe(true);
    }
    // The restore became the baseline and holds every file now: its scope is the project's top.
    expect(log[0]!).toMatchObject({ snapshotId: restore.snapshotId, kind: 'baseline', scope: '' });
    expect((await engine.verify(projectId)).ok).toBe(true);
  });

  it('keeps a young version whose bytes are in no git commit, and thins the committed ones', async () => {
    const root = makeRepo({ 'a.txt': 'zero\n', 'b.txt': 'bee\n' });
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    onTestFinished(() => engine.close());
    const { projectId } = await engine.open(root);
    const step = async (text: string, commit: boolean) => {
      writeFileSync(join(root, 'a.txt'), text);
      if (commit) git(root, 'commit', '-qam', text);
      await engine.rescan(projectId);
    };
    await step('committed one\n', true);
    await step('never committed\n', false);
    await step('committed two\n', true);
    writeFileSync(join(root, 'b.txt'), 'bee two\n');
    await engine.rescan(projectId);
    ageHistory(historyDbPath(engine.store(projectId).storeDir), (i, count) => Date.now() - (count - i) * 26 * HOUR);
    await engine.config.editConfig(setSetting('retention', { ...DEFAULT_RETENTION, keepAllHours: 0, hourly: 0, daily: 0, weekly: 0 }));
    const plan = await engine.prune(projectId, { dryRun: true });
    expect(plan.decisions!.map((d) => [d.snapshotId, d.kept, d.why])).toEqual([
      [1, false, 'thinned'],
      [2, false, 'thinned'],
      [3, true, 'uncommitted'],
      [4, false, 'thinned'],
      [5, true, 'newest'],
    ]);
    // Past the window the uncommitted version is thinned like the rest.
    await engine.config.editConfig(setSetting('retention', { ...DEFAULT_RETENTION, keepAllHours: 0, hourly: 0, daily: 0, weekly: 0, uncommittedDays: 1 }));
    expect((await engine.prune(projectId, { dryRun: true })).keptBecause).toEqual({ newest: 1, pinned: 0, otherMachines: 0, uncommitted: 0, policy: 0 });
  });

  it("counts a version's bytes as in git when git's object database holds them, however old the commit that wrote them", async () => {
    const root = makeRepo({ 'a.txt': 'zero\n', 'b.txt': 'bee\n' });
    // A commit from years ago on another branch holds "old work": HEAD's tree and the last week's commits do not.
    git(root, 'checkout', '-qb', 'old');
    writeFileSync(join(root, 'a.txt'), 'old work\n');
    execFileSync('git', ['commit', '-qam', 'old work'], {
      cwd: root,
      env: { ...GIT_ENV, GIT_AUTHOR_DATE: '2020-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2020-01-01T00:00:00Z' },
    });
    git(root, 'checkout', '-q', 'main');
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    onTestFinished(() => engine.close());
    const { projectId } = await engine.open(root);
    const recorded = async (path: string, text: string) => {
      writeFileSync(join(root, path), text);
      return (await engine.rescan(projectId)).snapshotId!;
    };
    const oldWork = await recorded('a.txt', 'old work\n');
    const neverInGit = await recorded('a.txt', 'never in git\n');
    const staged = await recorded('a.txt', 'staged only\n');
    git(root, 'add', 'a.txt');
    await recorded('b.txt', 'bee two\n');
    ageHistory(historyDbPath(engine.store(projectId).storeDir), (i, count) => Date.now() - (count - i) * 26 * HOUR);
    await engine.config.editConfig(setSetting('retention', { ...DEFAULT_RETENTION, keepAllHours: 0, hourly: 0, daily: 0, weekly: 0 }));
    const why = new Map((await engine.prune(projectId, { dryRun: true })).decisions!.map((d) => [d.snapshotId, d.why]));
    expect([why.get(oldWork), why.get(neverInGit), why.get(staged)]).toEqual(['thinned', 'uncommitted', 'thinned']);
  });

  it('answers the CLI with the contract shape, and --dry-run lists every snapshot kept or removed and why', async () => {
    const { root, dataDir, engine, projectId } = await recordedHistory(6);
    ageHistory(historyDbPath(engine.store(projectId).storeDir), (i, count) => Date.now() - (count - 1 - i) * 30 * HOUR);
    engine.close();
    const data = ['--data-dir', dataDir];
    await cliJson(['config', 'set', 'retention.daily', '2', ...data]);
    await cliJson(['config', 'set', 'retention.hourly', '0', ...data]);
    await cliJson(['pin', root, '--snapshot', '2', ...data]);
    const dry = await cliJson<PruneResult>(['prune', root, '--dry-run', '--json', ...data]);
    expect(Object.keys(dry)).toEqual(expect.arrayContaining(['versions', 'snapshots', 'blobs', 'bytesFreed', 'keptBecause']));
    expect(Object.keys(dry.keptBecause).sort()).toEqual(['newest', 'otherMachines', 'pinned', 'policy', 'uncommitted']);
    expect(dry.decisions!.map((d) => [d.snapshotId, d.kept, d.why])).toContainEqual([2, true, 'pinned']);
    expect(dry.decisions!.filter((d) => !d.kept).length).toBe(dry.snapshots);
    const human = await runCli(['prune', root, '--dry-run', ...data]);
    expect(human.code).toBe(0);
    expect(human.stdout.toString()).toMatch(/Would remove \d+ snapshots?/);
    const real = await cliJson<PruneResult>(['prune', root, '--json', ...data]);
    expect(real).toMatchObject({ dryRun: false, snapshots: dry.snapshots, versions: dry.versions, decisions: null });
    expect((await cliJson<{ ok: boolean }>(['verify', root, '--json', ...data])).ok).toBe(true);
  });
});

function unreferencedHashes(dbFile: string): string[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (db.prepare('SELECT hash FROM blob_marks ORDER BY hash').all() as { hash: string }[]).map((r) => r.hash);
  } finally {
    db.close();
  }
}

/** The search index's rows for one blob: its search_blobs row, and its text row (contentless: counted by rowid). */
function searchRows(dbFile: string, hash: string): { blobs: number; text: number } {
  const db = new Database(dbFile, { readonly: true });
  try {
    const row = db.prepare('SELECT id FROM search_blobs WHERE hash = ?').get(hash) as { id: number } | undefined;
    const text = row ? (db.prepare('SELECT COUNT(*) AS n FROM search_text WHERE rowid = ?').get(row.id) as { n: number }).n : 0;
    return { blobs: row ? 1 : 0, text };
  } finally {
    db.close();
  }
}
