import type { PruneArchive } from '../../../shared/contract/values.js';
import { isHindsightError } from '../../../shared/errors.js';
import type { ProjectStore } from '../project/projectStore.js';
import { faultPoint } from '../faultPoint.js';
import { count } from '../trace.js';
import { decodeChunk } from './pruneProtocol.js';
import type { Plan } from './prunePlanner.js';

// A prune that moves what the policy thins to a remote instead of deleting it (setting
// retention.archiveToRemote, or `prune --archive-to NAME`): every row stays (the versions still
// list, diff and restore), and the blobs only thinned versions name are pushed (the ordinary
// push: blobs, then records, then heads) and then removed from this disk, so they become
// remote-only like a clone's older versions and are fetched, hash-checked, when read
// (remote/fetch/bytesOnDemand.ts). A blob file is removed only when the push succeeded and the
// remote is recorded as holding that blob; a push that fails removes nothing and the prune's
// answer says why. Killed anywhere, nothing is lost: before the push ends every file is here; after
// it, each file removed is one the remote holds, and the next prune removes the rest.

export interface ArchiveTarget {
  remote: string;
  /** Pushes the project to the remote (rejects with the push's error). */
  push: () => Promise<unknown>;
  /** Whether the remote is recorded as holding the blob (the push's ledger). */
  holds: (hash: string) => boolean;
}

/** The blobs a plan leaves to only thinned versions that are still on this disk, with their bytes. */
export function archivable(store: ProjectStore, plan: Plan): { hashes: string[]; bytes: number } {
  const hashes: string[] = [];
  let bytes = 0;
  const seen = new Set<string>();
  for (const encoded of plan.chunks) {
    for (const hash of decodeChunk(encoded).unreferencedBlobs) {
      if (seen.has(hash)) continue;
      seen.add(hash);
      if (!store.blobs.has(hash)) continue;
      hashes.push(hash);
      bytes += store.index.blobRecords.blobSize(hash) ?? 0;
    }
  }
  return { hashes, bytes };
}

/** Pushes, then removes the local files of the blobs the remote now holds; answers what moved. */
export async function archiveThinned(store: ProjectStore, plan: Plan, target: ArchiveTarget): Promise<PruneArchive> {
  const { hashes, bytes } = archivable(store, plan);
  const result: PruneArchive = { remote: target.remote, blobs: hashes.length, bytes, movedBlobs: 0, movedBytes: 0, error: null };
  if (hashes.length === 0) return result;
  // Readers of this history fetch what is absent from this remote from now on.
  store.index.setMeta('remote.archivedTo', target.remote);
  try {
    await target.push();
  } catch (error) {
    if (!isHindsightError(error) || error.code === 'CANCELLED') throw error;
    return { ...result, error: `Nothing was moved to ${target.remote}: the push failed (${error.message}). Every version is still on this disk.` };
  }
  faultPoint('archive-pushed');
  for (const hash of hashes) {
    if (!target.holds(hash)) continue;
    const size = store.index.blobRecords.blobSize(hash) ?? 0;
    store.blobs.remove(hash);
    count('prune.archivedBlobs');
    result.movedBlobs++;
    result.movedBytes += size;
    faultPoint('archive-removing');
  }
  return result;
}
