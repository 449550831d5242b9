import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import type { RetentionPolicy } from '../../../shared/retention.js';
import { effectiveTimes } from '../../../shared/retentionBuckets.js';
import { committedBlobs } from '../git/committedBlobs.js';
import type { ProjectStore } from '../project/projectStore.js';
import { blobPath } from '../store/storeLayout.js';

// Which young versions hold work that is in no git commit: a local history exists for exactly
// that, so a prune never removes them. Outside a git repository there are no commits to compare
// with: the policy alone decides (every version is "uncommitted" there, and protecting them all
// would keep a week of every edit whatever the policy says).
// A version's bytes are compared with git's by git's own object id (SHA-1 of "blob <size>\0"
// and the bytes), computed once per stored blob and kept in history.db (blob_git_oids).

export interface YoungVersion {
  id: number;
  path: string;
  hash: string;
  size: number;
}

const DAY = 86_400_000;

/**
 * The versions the rule asks git about: those of snapshots younger (by the history's own times)
 * than the window, but the newest snapshot's (kept anyway); and the window's start. Pure: the
 * prune planner picks them beside the rows it read.
 */
export function youngVersions(
  rows: { snapshots: readonly { id: number; at: number }[]; versions: readonly { id: number; snapshotId: number; path: string; hash: string | null; size: number }[] },
  policy: RetentionPolicy,
): { young: YoungVersion[]; since: number } {
  if (rows.snapshots.length === 0 || policy.uncommittedDays === 0) return { young: [], since: 0 };
  const times = effectiveTimes(rows.snapshots);
  const since = times[times.length - 1]! - policy.uncommittedDays * DAY;
  const youngSnapshots = new Set(rows.snapshots.filter((_, i) => times[i]! >= since).map((s) => s.id));
  youngSnapshots.delete(rows.snapshots[rows.snapshots.length - 1]!.id);
  const young: YoungVersion[] = [];
  for (const v of rows.versions) if (v.hash !== null && youngSnapshots.has(v.snapshotId)) young.push({ id: v.id, path: v.path, hash: v.hash, size: v.size });
  return { young, since };
}

export async function uncommittedVersions(store: ProjectStore, young: readonly YoungVersion[], sinceMs: number): Promise<Set<number>> {
  const repo = store.git.repository();
  if (!repo || young.length === 0) return new Set();
  const paths = [...new Set(young.map((v) => v.path))].sort();
  const committed = await committedBlobs(repo.workTree, sinceMs, paths);
  const known = store.index.gitOids(young.map((v) => v.hash));
  const computed: { hash: string; oid: string }[] = [];
  const uncommitted = new Set<number>();
  for (const v of young) {
    let oid = known.get(v.hash);
    if (oid === undefined) {
      oid = gitBlobOid(blobPath(store.blobsDir, v.hash), v.size);
      if (oid === undefined) {
        uncommitted.add(v.id);
        continue;
      }
      known.set(v.hash, oid);
      computed.push({ hash: v.hash, oid });
    }
    if (!committed.has(oid)) uncommitted.add(v.id);
  }
  if (computed.length > 0) store.index.rememberGitOids(computed);
  return uncommitted;
}

/** git's object id of a stored blob; undefined when it cannot be read (then it counts as uncommitted). */
function gitBlobOid(file: string, size: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const hash = createHash('sha1').update(`blob ${size}\0`);
    const chunk = Buffer.allocUnsafe(Math.min(Math.max(size, 1), 1024 * 1024));
    let total = 0;
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      hash.update(chunk.subarray(0, n));
      total += n;
    }
    return total === size ? hash.digest('hex') : undefined;
  } finally {
    closeSync(fd);
  }
}
