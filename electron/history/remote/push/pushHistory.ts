import { basename, join } from 'node:path';
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { isHindsightError } from '../../../../shared/errors.js';
import type { RemoteConfig } from '../../config/configSchema.js';
import { acquireFileLock, type LockHolder } from '../../fileLock.js';
import type { ProgressSink } from '../../progressThrottle.js';
import type { ProjectStore } from '../../project/projectStore.js';
import { machineIdentity } from '../machineIdentity.js';
import type { PushSource } from '../pushSource.js';
import { openRemoteStore, remoteIdentity } from '../remoteConfig.js';
import { remoteProjectId, remoteFork } from '../remoteProject.js';
import { TransferMeter } from '../../transferMeter.js';
import { PackWorkers } from './packWorkers.js';
import { pendingBlobs, pushProject, type PushResult } from './pushProject.js';
import { STANDALONE_BYTES } from './sendData.js';

// `hindsight push` and the app's background push: one project's history to one remote, holding
// the project's push lock (one push per project at a time on this machine, across processes), and
// noting a failure so the Store tab can show it until the next push succeeds.

export interface PushHistoryOptions {
  credentials?: S3ClientConfig['credentials'];
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  /** Told once when another push of this project runs and this one waits for it. */
  onWait?: (holder: LockHolder) => void;
  onStep?: (step: 'data' | 'index' | 'snapshots' | 'head') => void;
  /** The app's background push: its pack workers run at the lowest priority. */
  background?: boolean;
}

export async function pushHistory(dataDir: string, store: ProjectStore, remote: RemoteConfig, options: PushHistoryOptions = {}): Promise<PushResult> {
  const lock = await acquireFileLock(join(store.storeDir, 'push.lock'), {
    label: 'push lock of the history',
    counter: 'push',
    failCode: 'INTERNAL',
    signal: options.signal,
    onWait: options.onWait,
  });
  const identity = remoteIdentity(remote);
  const source = pushSourceOf(dataDir, store);
  const meter = new TransferMeter('push', source.projectId, options.onProgress);
  const ledger = store.index.remotes.remoteLedger(identity, { projectId: source.projectId, machineId: source.machine.id });
  // The pack workers start on what the remote probably lacks (as the ledger has it) before the
  // S3 client is loaded and the heads listed, so those run beside the reading and compressing;
  // the push narrows the list once it knows (pushProject.ts).
  const forms = new PackWorkers(store.blobs, { lowPriority: options.background });
  try {
    const sizes = new Map<string, number>();
    const likely = pendingBlobs(source.snapshotsAfter(ledger.link().pushedOrigin), source, ledger, sizes);
    forms.expect(likely.filter((b) => b.size < STANDALONE_BYTES));
    const objects = await openRemoteStore(remote, { credentials: options.credentials, onRetry: (notice) => meter.retrying(notice) });
    try {
      return await pushProject(objects, source, ledger, { signal: options.signal, onStep: options.onStep, meter, forms, sizes });
    } finally {
      objects.close();
    }
  } catch (error) {
    if (isHindsightError(error) && error.code !== 'CANCELLED') store.index.remotes.noteRemoteError(identity, error.message);
    throw error;
  } finally {
    await forms.close();
    lock.release();
  }
}

/** The local history as a push reads it. */
export function pushSourceOf(dataDir: string, store: ProjectStore): PushSource {
  return {
    projectId: remoteProjectId(store),
    name: basename(store.root) || store.root,
    root: store.root,
    machine: machineIdentity(dataDir),
    fork: remoteFork(store),
    snapshotsAfter: (origin) => store.index.remotes.ownSnapshotsAfter(origin),
    blobSize: (hash) => store.index.blobRecords.blobSize(hash),
    // Both readers refuse (and mark damaged) bytes that do not match their name: a damaged
    // blob never reaches the remote.
    readBlob: (hash, size, path) => store.blobs.head(hash, Number.MAX_SAFE_INTEGER, size, { path }),
    readCompressed: (hash, size, path) => {
      const kept = store.blobs.storedForm(hash, size, { inflate: true, subject: { path } });
      return kept.form === 'compressed' ? kept.bytes : undefined;
    },
    blobChunks: (hash, size, path, chunk) => store.blobs.pieces(hash, size, chunk, { path }),
  };
}
