import type { VerifyResult } from '../../../shared/history.js';
import type { Progress } from '../../../shared/progress.js';
import type { ProjectStore } from '../project/projectStore.js';
import { throttleProgress, type ProgressSink } from '../progressThrottle.js';
import type { RemoteOnly } from '../remote/remoteOnlyBlobs.js';
import { repairFromFolder } from './repairBlobs.js';

// Re-hashes every blob the index names and reports the missing and corrupt ones with the
// versions that point at them, so a person knows exactly which file versions are affected. What
// it finds is marked in the index (so no copy trusts those names) and marks of blobs found intact
// are cleared. A blob absent from this disk that a remote holds (a clone's older versions) is not
// missing: it is counted apart, and, when asked, checked on the remote. With `repair` (run as the project's writer), the right bytes are then looked for
// in the folder: the result lists the versions repaired apart from those still lost.

export interface VerifyOptions {
  signal?: AbortSignal;
  repair?: boolean;
  /**
   * Of the blobs absent from this disk, those a remote holds (remote/remoteOnlyBlobs.ts): they
   * are fetched when first read, so they are counted apart, not as missing.
   */
  remoteOnly?: (absent: string[], signal?: AbortSignal) => Promise<RemoteOnly>;
}

const PARALLEL = 4;

export async function verifyStore(store: ProjectStore, onProgress?: ProgressSink, options: VerifyOptions = {}): Promise<VerifyResult> {
  const { signal } = options;
  const blobs = store.index.blobRecords.blobs();
  const bytesTotal = blobs.reduce((sum, b) => sum + b.size, 0);
  const progress = throttleProgress(onProgress);
  let missing: string[] = [];
  const corrupt: string[] = [];
  let next = 0;
  const done = { files: 0, bytes: 0 };
  const report = (phase: Progress['phase']): Progress => ({
    operation: 'verify',
    projectId: store.projectId,
    phase,
    filesDone: done.files,
    filesTotal: blobs.length,
    bytesDone: done.bytes,
    bytesTotal,
  });
  const worker = async () => {
    while (next < blobs.length) {
      signal?.throwIfAborted();
      const blob = blobs[next++]!;
      const actual = await store.blobs.hashNow(blob.hash);
      if (actual === undefined) missing.push(blob.hash);
      else if (actual !== blob.hash) corrupt.push(blob.hash);
      done.files++;
      done.bytes += blob.size;
      progress.update(report('verify'));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  const remote = options.remoteOnly ? await options.remoteOnly(missing, signal) : { held: [], check: null };
  const onRemote = new Set(remote.held);
  missing = missing.filter((hash) => !onRemote.has(hash));
  for (const hash of missing) store.index.damage.markDamaged(hash, 'missing');
  for (const hash of corrupt) store.index.damage.markDamaged(hash, 'corrupt');
  const found = new Set([...missing, ...corrupt]);
  store.index.damage.clearDamaged(store.index.damage.damagedHashes().filter((hash) => !found.has(hash)));
  const repaired = new Set(options.repair && found.size > 0 ? repairFromFolder(store, signal) : []);
  progress.finish(report('done'));
  const withVersions = (hash: string) => ({ hash, versions: store.index.versions.versionsNaming(hash) });
  const lost = (list: string[]) =>
    list
      .filter((hash) => !repaired.has(hash))
      .sort()
      .map(withVersions);
  const left = { missing: lost(missing), corrupt: lost(corrupt) };
  return {
    blobs: blobs.length,
    ok: left.missing.length === 0 && left.corrupt.length === 0,
    ...left,
    repaired: [...repaired].sort().map(withVersions),
    remoteOnly: onRemote.size,
    remoteCheck: remote.check,
  };
}
