import { createHash } from 'node:crypto';
import type { RetentionPolicy } from '../../../shared/retention.js';
import { effectiveTimes } from '../../../shared/retentionBuckets.js';
import { blobsPresent } from '../git/catFileBatchCheck.js';
import type { BlobStore } from '../store/blobStore.js';

// Which young versions hold work git does not have: a local history exists for exactly that, so
// a prune never removes them. The rule is exact: a version's bytes are in git when git's object
// database holds that blob (`git cat-file --batch-check`, git/catFileBatchCheck.ts), whenever the
// commit that wrote it was made, on whatever branch; not when some commit is merely recent. Outside a git repository there are no commits to compare
// with: the policy alone decides (every version is "uncommitted" there, and protecting them all
// would keep a week of every edit whatever the policy says).
// A version's bytes are compared with git's by git's own object id (SHA-1 of "blob <size>\0"
// and the bytes), computed once per stored blob and kept in history.db (blob_git_oids). The rule
// runs in the prune planner's worker (pruneWorker.ts): its git calls, its reads of blobs and its
// hashing never take the history process's event loop; the ids it computed go back with the plan.

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
  rows: {
    snapshots: readonly { id: number; at: number }[];
    versions: readonly { id: number; snapshotId: number; path: string; hash: string | null; size: number }[];
  },
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

/** Where the rule looks: the project's git work tree (undefined: none), the blobs, and git's ids already known (history.db). */
export interface UncommittedSource {
  workTree: string | undefined;
  blobs: BlobStore;
  knownOids: (hashes: readonly string[]) => Map<string, string>;
}

/** The young versions whose bytes git does not hold, and git's ids computed on the way (for history.db to remember). */
export async function uncommittedVersions(
  source: UncommittedSource,
  young: readonly YoungVersion[],
): Promise<{ uncommitted: Set<number>; computed: { hash: string; oid: string }[] }> {
  const computed: { hash: string; oid: string }[] = [];
  const uncommitted = new Set<number>();
  if (source.workTree === undefined || young.length === 0) return { uncommitted, computed };
  const known = source.knownOids(young.map((v) => v.hash));
  const oidOf = new Map<number, string>();
  for (const v of young) {
    let oid = known.get(v.hash);
    if (oid === undefined) {
      oid = gitBlobOid(source.blobs, v.hash, v.size);
      if (oid === undefined) {
        uncommitted.add(v.id);
        continue;
      }
      known.set(v.hash, oid);
      computed.push({ hash: v.hash, oid });
    }
    oidOf.set(v.id, oid);
  }
  const inGit = await blobsPresent(source.workTree, [...oidOf.values()]);
  for (const [id, oid] of oidOf) if (!inGit.has(oid)) uncommitted.add(id);
  return { uncommitted, computed };
}

const PIECE = 1024 * 1024;

/** git's object id of a stored blob, read through the blob reader; undefined when it cannot be read (then it counts as uncommitted). */
function gitBlobOid(blobs: BlobStore, hash: string, size: number): string | undefined {
  const oid = createHash('sha1').update(`blob ${size}\0`);
  try {
    for (const piece of blobs.pieces(hash, size, PIECE)) oid.update(piece);
  } catch {
    return undefined;
  }
  return oid.digest('hex');
}
