import type { S3ClientConfig } from '@aws-sdk/client-s3';
import type { RemoteConfig } from '../../config/configSchema.js';
import type { ProjectStore } from '../../project/projectStore.js';
import { isHash, type WantedHashes } from '../../project/bytesOnDemand.js';
import type { BlobLocation } from '../../db/remoteLedger.js';
import { machineIdentity } from '../machineIdentity.js';
import { openRemoteStore, remoteIdentity } from '../remoteConfig.js';
import { remoteProjectId } from '../remoteProject.js';
import { fetchBlobs } from './fetchBlobs.js';
import { planFetch } from './fetchPlan.js';
import { missingBlobs, storeSink } from './storeSink.js';

// Bytes of old versions of a cloned history (and of snapshots a pull brought in, and of versions a
// prune moved to a remote), fetched the first time a reader needs them: one
// range GET per blob (neighbours joined), checked against the hash, kept in the blob store. The
// remote is asked for first: a history with no remote to fetch from (most histories) costs one
// config read and no stat at all, whatever the number of blobs (an export or a snapshot written
// into a new folder names every blob); one with a remote costs one stat per blob asked for, and a
// connection only when some are missing here and the remote holds them.

export async function fetchMissingBlobs(
  dataDir: string,
  store: ProjectStore,
  remotes: readonly RemoteConfig[],
  hashes: Iterable<string> | (() => Iterable<string>),
  options: { credentialsOf?: CredentialsOf; signal?: AbortSignal } = {},
): Promise<number> {
  const holder = remoteHolding(dataDir, store, remotes);
  // No remote to ask: the reader reports a missing blob itself, as for any history.
  if (!holder) return 0;
  // A list that costs a query to make (an export's blobs) is made only now that a remote could hold some.
  const missing = missingBlobs(store.blobs, typeof hashes === 'function' ? hashes() : hashes);
  if (missing.length === 0) return 0;
  const located = holder.locate(missing);
  if (located.length === 0) return 0;
  const objects = await openRemoteStore(holder.remote, { credentials: options.credentialsOf?.(holder.remote.name) });
  try {
    await fetchBlobs(objects, holder.projectId, planFetch(located), storeSink(store.blobs), undefined, options.signal);
  } finally {
    objects.close();
  }
  return located.length;
}

/**
 * Bytes a reader is about to need that only a remote holds, from the remotes of config.json. A
 * list naming no blob (a link, a missing row) costs nothing, not even the config read.
 */
export async function bytesOnDemand(
  dataDir: string,
  store: ProjectStore,
  remotes: () => readonly RemoteConfig[],
  hashes: WantedHashes,
  options: { credentialsOf?: CredentialsOf; signal?: AbortSignal } = {},
): Promise<void> {
  if (typeof hashes !== 'function' && !hashes.some(isHash)) return;
  const wanted = () => (typeof hashes === 'function' ? hashes() : hashes).filter(isHash);
  await fetchMissingBlobs(dataDir, store, remotes(), wanted, options);
}

/** A remote's credentials held by the app (its keychain), by remote name; undefined: the AWS chain. */
export type CredentialsOf = (remoteName: string) => S3ClientConfig['credentials'];

export interface RemoteHolding {
  remote: RemoteConfig;
  /** The project's id on that remote. */
  projectId: string;
  /** Where the remote holds each of `hashes` that it holds, as the indexes read so far say. */
  locate(hashes: Iterable<string>): [string, BlobLocation][];
}

/**
 * The remote a project's bytes can come from: the one it was cloned (or pulled) from, or that a
 * prune moved its thinned versions to (retention/archiveThinned.ts), else its only remote;
 * undefined when there is none to ask.
 */
export function remoteHolding(dataDir: string, store: ProjectStore, remotes: readonly RemoteConfig[]): RemoteHolding | undefined {
  const name = store.index.getMeta('remote.clonedFrom') ?? store.index.getMeta('remote.pulledFrom') ?? store.index.getMeta('remote.archivedTo');
  const remote = remotes.find((r) => r.name === name) ?? (remotes.length === 1 ? remotes[0] : undefined);
  if (!remote) return undefined;
  const projectId = remoteProjectId(store);
  const ledger = store.index.remotes.remoteLedger(remoteIdentity(remote), { projectId, machineId: machineIdentity(dataDir).id });
  return {
    remote,
    projectId,
    locate(hashes) {
      const located: [string, BlobLocation][] = [];
      for (const hash of hashes) {
        const location = ledger.locate(hash);
        if (location) located.push([hash, location]);
      }
      return located;
    },
  };
}
