import type { NewSnapshot, NewVersion } from '../db/historyIndex.js';
import { fileEntries } from '../copy/fileEntries.js';
import type { ProjectStore } from '../project/projectStore.js';
import type { WalkEntry } from '../walk/walkFolder.js';
import { statPath } from './statPath.js';

// Records what some paths hold now, as one snapshot, for the paths whose contents, mode, type or
// existence differ from their latest version. It is how a restore captures what it is about to
// overwrite (a restore never loses data) and how a change group is written.

export interface RecordResult {
  snapshotId: number | undefined;
  changed: string[];
}

export async function recordPaths(
  store: ProjectStore,
  paths: readonly string[],
  snapshot: NewSnapshot,
  known?: ReadonlyMap<string, WalkEntry | undefined>,
): Promise<RecordResult> {
  const present: WalkEntry[] = [];
  const gone: string[] = [];
  for (const path of paths) {
    const entry = known?.has(path) ? known.get(path) : statPath(store.root, path);
    if (entry) present.push(entry);
    else gone.push(path);
  }
  const filed = await fileEntries(present, { blobsDir: store.blobsDir });
  const versions: NewVersion[] = [];
  for (const version of filed.versions) {
    const latest = store.index.latestVersion(version.path);
    const same =
      latest &&
      latest.hash === version.hash &&
      latest.mode === version.mode &&
      (latest.type ?? null) === version.type &&
      (latest.target ?? null) === (version.target ?? null);
    if (!same) versions.push(version);
  }
  const removedStats: string[] = [];
  for (const path of [...gone, ...filed.skipped]) {
    const latest = store.index.latestVersion(path);
    removedStats.push(path);
    if (latest && latest.hash !== null) versions.push({ path, hash: null, mode: 0, size: 0, type: null });
  }
  if (versions.length === 0) {
    store.index.writeStats(filed.stats, removedStats);
    return { snapshotId: undefined, changed: [] };
  }
  versions.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const named = new Set(versions.map((v) => v.hash));
  const blobs = filed.blobs.filter((b) => named.has(b.hash));
  const snapshotId = store.index.commitSnapshot(snapshot, versions, blobs, filed.stats, removedStats);
  return { snapshotId, changed: versions.map((v) => v.path) };
}
