import type { VerifyResult } from '../../../shared/history.js';
import type { Progress } from '../../../shared/progress.js';
import type { ProjectStore } from '../project/projectStore.js';
import { hashBlob } from '../store/blobReader.js';
import { throttleProgress, type ProgressSink } from '../progressThrottle.js';

// Re-hashes every blob the index names and reports the missing and corrupt ones with the
// versions that point at them, so a person knows exactly which file versions are affected.

const PARALLEL = 4;

export async function verifyStore(store: ProjectStore, onProgress?: ProgressSink, signal?: AbortSignal): Promise<VerifyResult> {
  const blobs = store.index.blobs();
  const bytesTotal = blobs.reduce((sum, b) => sum + b.size, 0);
  const progress = throttleProgress(onProgress);
  const missing: string[] = [];
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
      const actual = await hashBlob(store.blobsDir, blob.hash);
      if (actual === undefined) missing.push(blob.hash);
      else if (actual !== blob.hash) corrupt.push(blob.hash);
      done.files++;
      done.bytes += blob.size;
      progress.update(report('verify'));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  progress.finish(report('done'));
  const withVersions = (hash: string) => ({ hash, versions: store.index.versionsNaming(hash) });
  return {
    blobs: blobs.length,
    ok: missing.length === 0 && corrupt.length === 0,
    missing: missing.sort().map(withVersions),
    corrupt: corrupt.sort().map(withVersions),
  };
}
