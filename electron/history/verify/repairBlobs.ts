import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { ProjectStore } from '../project/projectStore.js';
import { fsArg, type FsPath } from '../paths/fsPath.js';
import { safeTarget } from '../paths/safeTarget.js';
import { cloneModeFromEnv } from '../store/fileEntries.js';
import { count } from '../trace.js';

// Brings back blobs found missing or damaged from the folder itself: a file whose bytes still
// hash to a damaged blob's name is filed again over it. Candidates are the paths that held that
// hash at the last scan and the paths of the versions naming it; each is hashed first (only a file
// of the recorded size), so a file that no longer holds those bytes leaves nothing in the store.
// Runs as the project's writer (a rescan, verify --repair).

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const PIECE = 1024 * 1024;

/** Repairs what it can of the damaged blobs the index lists; returns the hashes repaired. */
export function repairFromFolder(store: ProjectStore, signal?: AbortSignal): string[] {
  // Every rescan asks: with nothing marked (the usual case) that is one lookup, not a scan.
  if (store.index.damage.damagedHashes().length === 0) return [];
  const repaired = new Set<string>();
  const placed: { hash: string; stored: number }[] = [];
  for (const { path, hash, size } of store.index.damage.repairCandidates()) {
    signal?.throwIfAborted();
    if (repaired.has(hash)) continue;
    let abs: FsPath;
    try {
      abs = fsArg(safeTarget(store.root, path));
    } catch {
      continue; // a path that now leads outside the folder is not read
    }
    if (hashOf(abs, size) !== hash) continue;
    const outcome = store.blobs.putFile(abs, { cloneMode: cloneModeFromEnv(), rewrite: new Set([hash]) });
    if (outcome.kind === 'filed' && outcome.hash === hash) {
      repaired.add(hash);
      // Written again, perhaps in the other form: the index records its bytes on disk now.
      if (outcome.stored !== undefined) placed.push({ hash, stored: outcome.stored });
      count('repair.blobs');
    }
  }
  store.index.blobRecords.recordStoredSizes(placed);
  store.index.damage.clearDamaged([...repaired]);
  return [...repaired];
}

/** The SHA-256 of a regular file of exactly `size` bytes; undefined for anything else. */
function hashOf(abs: FsPath, size: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | O_NOFOLLOW | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size !== size) return undefined;
    const digest = createHash('sha256');
    const buffer = Buffer.allocUnsafe(Math.min(PIECE, Math.max(size, 1)));
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      digest.update(buffer.subarray(0, n));
    }
    return digest.digest('hex');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
