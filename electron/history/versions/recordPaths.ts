import { isHindsightError } from '../../../shared/errors.js';
import type { UnreadablePath } from '../../../shared/history.js';
import type { NewBlob, NewSnapshot, NewVersion, StatRow } from '../db/historyIndex.js';
import { faultPoint } from '../faultPoint.js';
import type { ProjectStore } from '../project/projectStore.js';
import type { CopyPool } from '../store/copyPool.js';
import { fileEntries } from '../store/fileEntries.js';
import { overSizeLimit, type WalkEntry } from '../walk/walkFolder.js';
import { unreadableReason } from '../walk/unreadable.js';
import { findRenames, type DeletedFile, type Rename } from './findRenames.js';
import { statPath } from '../walk/statPath.js';
import { nameRulesOf } from '../paths/nameRules.js';
import { spellingRenames } from './spellingRenames.js';

// Records what some paths hold now, as one snapshot, for the paths whose contents, mode, type or
// existence differ from their latest version. It is how a restore captures what it is about to
// overwrite (a restore never loses data) and how a change group is written. The work is split in
// two: preparing (filing bytes on the copy workers, comparing with the latest versions) and
// committing, so a change group can run its hooks and insert a checkpoint in between.

export interface RecordResult {
  snapshotId: number | undefined;
  changed: string[];
}

export interface PreparedChanges {
  /** Sorted by path: one per path whose contents, mode, type or existence changed. */
  versions: NewVersion[];
  blobs: NewBlob[];
  stats: StatRow[];
  removedStats: string[];
  /** How many of the changed paths had contents before (rewrites and deletions, not additions). */
  replaced: number;
  /** Present but not readable: neither a new version nor a deletion, and their stat rows stay as they were. */
  unreadable: UnreadablePath[];
  /** Files moved within the change: a new path and the deleted one it came from (findRenames.ts). */
  renames: Rename[];
}

export async function prepareChanges(
  store: ProjectStore,
  paths: readonly string[],
  known?: ReadonlyMap<string, WalkEntry | undefined>,
  pool?: CopyPool,
  maxFileSize?: number | null,
  signal?: AbortSignal,
): Promise<PreparedChanges> {
  const present: WalkEntry[] = [];
  const gone: string[] = [];
  const unreadable: UnreadablePath[] = [];
  for (const path of paths) {
    let entry: WalkEntry | undefined;
    try {
      entry = known?.has(path) ? known.get(path) : statPath(store.root, path);
    } catch (error) {
      // Cannot even be looked at (its folder lost its permissions): left as recorded, tried again.
      const reason = unreadableReason(error, 'file');
      if (reason === undefined) throw error;
      unreadable.push({ path, reason });
      continue;
    }
    // A new file over the size limit is not taken in; one with a history stays tracked.
    if (entry && overSizeLimit(entry, maxFileSize) && !store.index.versions.latestVersion(path)?.hash) continue;
    if (entry) present.push(entry);
    else gone.push(path);
  }
  const filed = await fileEntries(present, { blobs: store.blobs, pool, signal, damaged: store.index.damage.damagedHashes() });
  store.index.damage.clearDamaged(filed.repaired);
  const latestVersion = (path: string) => store.index.versions.latestVersionOf(path);
  const versions: NewVersion[] = [];
  const added: NewVersion[] = [];
  const deleted: DeletedFile[] = [];
  let replaced = 0;
  for (const version of filed.versions) {
    const latest = latestVersion(version.path);
    if (!latest?.hash && version.hash !== null) added.push(version);
    const same =
      latest &&
      latest.hash === version.hash &&
      latest.mode === version.mode &&
      (latest.type ?? null) === version.type &&
      (latest.target ?? null) === (version.target ?? null);
    if (same) continue;
    if (latest?.hash) replaced++;
    versions.push(version);
  }
  const removedStats: string[] = [];
  for (const path of [...gone, ...filed.skipped]) {
    const latest = latestVersion(path);
    removedStats.push(path);
    if (latest && latest.hash !== null) {
      versions.push({ path, hash: null, mode: 0, size: 0, type: null });
      deleted.push({ path, hash: latest.hash, size: latest.size, type: latest.type });
      replaced++;
    }
  }
  versions.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const named = new Set(versions.map((v) => v.hash));
  const blobs = filed.blobs.filter((b) => named.has(b.hash));
  const spelling = spellingRenames(added, deleted, nameRulesOf(store.root));
  const renames = [...spelling.renames, ...findRenames(spelling.added, spelling.deleted, (hash, size) => bytesForComparing(store, hash, size))];
  renames.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  return { versions, blobs, stats: filed.stats, removedStats, replaced, unreadable: [...unreadable, ...filed.unreadable], renames };
}

/** A blob's bytes to compare two files by, a MiB at a time (a damaged blob throws while read: then the pair is no rename). */
export function bytesForComparing(store: ProjectStore, hash: string, size: number): Iterable<Uint8Array> {
  return store.blobs.pieces(hash, size, 1024 * 1024);
}

/** Writes prepared changes as one snapshot; with nothing changed, only the stat rows are refreshed (unless `evenEmpty`: a move of HEAD that changed no file). */
export function commitPrepared(store: ProjectStore, prepared: PreparedChanges, snapshot: NewSnapshot, evenEmpty = false): RecordResult {
  if (prepared.versions.length === 0 && !evenEmpty) {
    store.index.statCache.writeStats(prepared.stats, prepared.removedStats);
    return { snapshotId: undefined, changed: [] };
  }
  faultPoint('record-commit');
  const snapshotId = store.index.commitSnapshot({
    snapshot,
    renames: prepared.renames,
    versions: prepared.versions,
    blobs: prepared.blobs,
    stats: prepared.stats,
    removedStats: prepared.removedStats,
  });
  return { snapshotId, changed: prepared.versions.map((v) => v.path) };
}

/**
 * Runs a prepare-and-commit once more when a prune collected one of its blobs after it was filed
 * (the commit refuses to name a blob whose file is gone): the second run files the bytes again.
 */
export async function againIfCollected<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(isHindsightError(error) && error.code === 'BLOB_MISSING' && error.details?.collected === true)) throw error;
    return work();
  }
}

export async function recordPaths(
  store: ProjectStore,
  paths: readonly string[],
  snapshot: NewSnapshot,
  known?: ReadonlyMap<string, WalkEntry | undefined>,
): Promise<RecordResult> {
  return againIfCollected(async () => commitPrepared(store, await prepareChanges(store, paths, known), snapshot));
}
