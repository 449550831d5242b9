import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { NewVersion } from '../../../electron/history/db/historyIndex.js';
import type { ProjectStore } from '../../../electron/history/project/projectStore.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { readTree } from '../../helpers/writeTree.js';
import Database from 'better-sqlite3';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { blobPath, historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { DROP_AFTER_SCHEMA_9 } from './olderSchema.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';

// Lines of history in one real history.db: this machine's line (a first copy and an edit) and
// another machine's snapshots written the way a pull writes them (importForeign, with the fork the
// other machine's head names: this machine's first copy). Every "state of the folder" read follows
// one line: this machine's for the folder, a snapshot's own line for "the files at" it.

const OWN = 'machine-a';
const OTHER = 'machine-b';

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function version(path: string, text: string | null): NewVersion {
  return text === null
    ? { path, hash: null, mode: 0o644, size: 0, type: null, target: null }
    : { path, hash: sha(text), mode: 0o600, size: Buffer.byteLength(text), type: 'file', target: null };
}

/** B's snapshots as a pull writes them: all in one transaction, with B's head's fork noted. */
function pullFromB(store: ProjectStore, fork: number, snapshots: { origin: number; label: string; versions: NewVersion[] }[]): number[] {
  return store.index.importForeign(
    snapshots.map((s) => ({
      snapshot: { kind: 'checkpoint', at: Date.now(), label: s.label, machine: OTHER, machineSnapshot: s.origin },
      versions: s.versions,
      blobs: s.versions.filter((v) => v.hash !== null).map((v) => ({ hash: v.hash!, size: v.size })),
    })),
    () => store.index.remotes.setLineFork(OTHER, { machine: OWN, origin: fork }, OWN),
  );
}

async function twoLines() {
  const project = await projectWithBaseline({ 'a.txt': 'a1\n', 'b.txt': 'b1\n', 'keep.txt': 'same\n' });
  const { engine, projectId, root, store } = project;
  const baseline = store.index.snapshotReads.baselineId()!;
  writeFileSync(join(root, 'a.txt'), 'a2 on A\n');
  const own = (await engine.rescan(projectId)).snapshotId!;
  // B cloned A's first copy, then changed b.txt and added c.txt, then deleted a.txt.
  const [b1, b2] = pullFromB(store, baseline, [
    { origin: 2, label: 'B one', versions: [version('b.txt', 'b on B\n'), version('c.txt', 'c on B\n')] },
    { origin: 3, label: 'B two', versions: [version('a.txt', null)] },
  ]);
  return { ...project, baseline, own, b1: b1!, b2: b2! };
}

describe('lines of history', () => {
  it("keeps this machine's state on its own line after another machine's snapshots take newer ids", async () => {
    const { engine, projectId, root, store, own, b2 } = await twoLines();
    expect(b2).toBeGreaterThan(own);
    expect(store.index.snapshotReads.latestSnapshotId()).toBe(own);
    expect(store.index.snapshotReads.lastSnapshotId()).toBe(b2);
    // The folder's files, newest versions and deleted list are A's.
    expect(store.index.files.filesAt().map((f) => [f.path, f.hash])).toEqual([
      ['a.txt', sha('a2 on A\n')],
      ['b.txt', sha('b1\n')],
      ['keep.txt', sha('same\n')],
    ]);
    expect(store.index.versions.latestVersion('a.txt')?.hash).toBe(sha('a2 on A\n'));
    expect(store.index.versions.latestVersionOf('b.txt')?.hash).toBe(sha('b1\n'));
    expect(store.index.versions.latestContents('c.txt')).toBeUndefined();
    expect(engine.deleted(projectId)).toEqual([]);
    // A rescan of an unchanged folder records nothing: it compares with A's line.
    const tree = readTree(root);
    const rescanned = await engine.rescan(projectId);
    expect([rescanned.snapshotId ?? null, rescanned.changed]).toEqual([null, 0]);
    expect(store.index.snapshotReads.latestSnapshotId()).toBe(own);
    expect(readTree(root)).toEqual(tree);
    // The disk's current version is A's, though B's list is shown beside it.
    const disk = await engine.diskState(projectId, 'a.txt');
    expect(disk.currentVersionId).toBe(store.index.versions.latestVersion('a.txt')!.versionId);
    const listed = engine.versions(projectId, 'a.txt');
    expect(listed.map((v) => [v.hash === null ? null : readable(v.hash), v.machine?.id ?? 'here'])).toEqual([
      ['a1', 'here'],
      ['a2 on A', 'here'],
      [null, OTHER],
    ]);
    expect(listed[2]!.machine).toEqual({ id: OTHER, snapshot: 3 });
  });

  it("reads the files at another machine's snapshot along that machine's line and the history before it split", async () => {
    const { engine, projectId, store, baseline, b1, b2 } = await twoLines();
    expect(store.index.files.filesAt(b1).map((f) => [f.path, f.hash, f.mode])).toEqual([
      ['a.txt', sha('a1\n'), 0o644],
      ['b.txt', sha('b on B\n'), 0o600],
      ['c.txt', sha('c on B\n'), 0o600],
      ['keep.txt', sha('same\n'), 0o644],
    ]);
    expect(store.index.files.filesAt(b2).map((f) => f.path)).toEqual(['b.txt', 'c.txt', 'keep.txt']);
    expect(store.index.snapshotReads.filesPresentAt(b2)).toBe(3);
    expect(store.index.snapshotReads.filesPresentAt(b1)).toBe(4);
    // What each of B's snapshots changed, against B's line (b.txt came from A's first copy).
    expect(engine.snapshotChanges(projectId, b1).map((c) => [c.path, c.change])).toEqual([
      ['b.txt', 'modified'],
      ['c.txt', 'added'],
    ]);
    expect(engine.snapshotChanges(projectId, b2).map((c) => [c.path, c.change])).toEqual([['a.txt', 'deleted']]);
    expect(store.index.versions.versionIdAt('a.txt', b1)).toBe(store.index.versions.versionsOf('a.txt')[0]!.versionId);
    expect(store.index.versions.versionBefore('b.txt', b1)?.hash).toBe(sha('b1\n'));
    expect(store.index.snapshotReads.previousSnapshotId(b1)).toBe(baseline);
    expect(store.index.snapshotReads.previousSnapshotId(b2)).toBe(b1);
    expect(store.index.snapshotReads.pathsChangedBetween(baseline, b2)).toBe(3);
  });

  it("restores another machine's snapshot into a new folder as that machine had it, and this machine's own restore and its undo", async () => {
    const { engine, projectId, root, store, baseline, own, b1 } = await twoLines();
    for (const text of ['b on B\n', 'c on B\n']) writeBlobFor(store, text);
    const into = tempDir();
    await engine.materializeSnapshot(projectId, b1, into);
    const file = (text: string, mode: number) => ({ hash: sha(text), mode, type: 'file' });
    expect(readTree(into)).toEqual({
      'a.txt': file('a1\n', 0o644),
      'b.txt': file('b on B\n', 0o600),
      'c.txt': file('c on B\n', 0o600),
      'keep.txt': file('same\n', 0o644),
    });
    // A's own snapshot restore: back to the first copy, then undone, each against A's line.
    const restored = await engine.restoreSnapshot(projectId, baseline);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a1\n');
    expect(restored.snapshotId).toBeGreaterThan(own);
    const undone = await engine.restoreSnapshot(projectId, own);
    expect(store.index.snapshotReads.snapshot(undone.snapshotId!)?.origin.kind).toBe('undo');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a2 on A\n');
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('b1\n');
  });
});

describe('schema 10', () => {
  it("gives the snapshots a schema 9 store brought in their lines and forks, from the pull's heads", async () => {
    const { engine, projectId, store, own, b1 } = await twoLines();
    const file = historyDbPath(store.storeDir);
    const engineDir = engine.dataDir;
    engine.close();
    const db = new Database(file);
    // As schema 9 left it: no lines; the ledger knows this machine's id and B's head (forked from A's first copy).
    db.exec(`${DROP_AFTER_SCHEMA_9}
      INSERT INTO remote_links (remote, project_id, machine_id) VALUES ('s3://b/p', 'p', '${OWN}');
      INSERT INTO remote_foreign (remote, machine_id, etag, head) VALUES ('s3://b/p', '${OTHER}', 'e', '{"fork":{"machine":"${OWN}","origin":1}}');`);
    db.pragma('user_version = 9');
    db.close();
    const again = new HistoryEngine(engineDir);
    try {
      const reopened = again.store(projectId);
      expect(reopened.index.snapshotReads.latestSnapshotId()).toBe(own);
      expect(reopened.index.files.filesAt(b1).map((f) => f.path)).toEqual(['a.txt', 'b.txt', 'c.txt', 'keep.txt']);
      expect(reopened.index.files.filesAt().map((f) => f.hash)).toEqual([sha('a2 on A\n'), sha('b1\n'), sha('same\n')]);
    } finally {
      again.close();
    }
  });
});

function readable(hash: string): string {
  for (const text of ['a1\n', 'a2 on A\n']) if (sha(text) === hash) return text.trim();
  return hash;
}

/** Files bytes in the store as a clone's fetch does (a pull fetches none): raw, at the blob's path. */
function writeBlobFor(store: ProjectStore, text: string): void {
  const file = blobPath(store.blobs.dir, sha(text));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text, { mode: 0o600 });
}
