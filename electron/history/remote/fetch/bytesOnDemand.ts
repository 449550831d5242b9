import type { S3ClientConfig } from '@aws-sdk/client-s3';
import type { RemoteConfig } from '../../config/configSchema.js';
import type { ProjectStore } from '../../project/projectStore.js';
import type { BlobLocation } from '../remoteLedger.js';
import { machineIdentity } from '../machineIdentity.js';
import { openRemoteStore, remoteIdentity } from '../remoteConfig.js';
import { remoteProjectId } from '../remoteProject.js';
import { fetchBlobs } from './fetchBlobs.js';
import { planFetch } from './fetchPlan.js';
import { missingBlobs, storeSink } from './storeSink.js';

// Bytes of old versions of a cloned history, fetched the first time a reader needs them: one
// range GET per blob (neighbours joined), checked against the hash, kept in the blob store. A
// history whose blobs are all here (every history recorded on this machine) costs one stat per
// blob asked for and never opens a connection.

export async function fetchMissingBlobs(
  dataDir: string,
  store: ProjectStore,
  remotes: readonly RemoteConfig[],
  hashes: Iterable<string>,
  options: { credentials?: S3ClientConfig['credentials']; signal?: AbortSignal } = {},
): Promise<number> {
  const missing = missingBlobs(store.blobsDir, hashes);
  if (missing.length === 0) return 0;
  const name = store.index.getMeta('remote.clonedFrom');
  const remote = remotes.find((r) => r.name === name) ?? (remotes.length === 1 ? remotes[0] : undefined);
  // No remote to ask: the reader reports the blob missing, as for any history.
  if (!remote) return 0;
  const projectId = remoteProjectId(store);
  const ledger = store.index.remoteLedger(remoteIdentity(remote), { projectId, machineId: machineIdentity(dataDir).id });
  const located: [string, BlobLocation][] = [];
  for (const hash of missing) {
    const location = ledger.locate(hash);
    if (location) located.push([hash, location]);
  }
  if (located.length === 0) return 0;
  const objects = await openRemoteStore(remote, { credentials: options.credentials });
  try {
    await fetchBlobs(objects, projectId, planFetch(located), storeSink(store.blobsDir), undefined, options.signal);
  } finally {
    objects.close();
  }
  return located.length;
}
