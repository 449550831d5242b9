import type { RemoteCheck } from '../../../shared/history.js';
import { isHindsightError } from '../../../shared/errors.js';
import type { RemoteConfig } from '../config/configSchema.js';
import type { ProjectStore } from '../project/projectStore.js';
import { blobKey, packKey } from '../remoteLayout/remoteKeys.js';
import { remoteHolding, type CredentialsOf } from './fetch/bytesOnDemand.js';
import { listData } from './remoteData.js';
import { openRemoteStore } from './remoteConfig.js';

// Blobs absent from this disk that a remote holds: a clone's older versions, fetched the first
// time they are read. verify counts them apart from missing ones; with `check` it asks the remote
// whether it still holds them (one LIST of the project's packs/ and blobs/, not one request per
// blob): those it lacks are missing after all.

export interface RemoteOnly {
  /** Of the blobs asked about, those the remote holds (or, when it could not be asked, is recorded to hold). */
  held: string[];
  check: RemoteCheck | null;
}

export async function remoteOnlyBlobs(
  dataDir: string,
  store: ProjectStore,
  remotes: readonly RemoteConfig[],
  absent: readonly string[],
  options: { check?: boolean; credentialsOf?: CredentialsOf; signal?: AbortSignal } = {},
): Promise<RemoteOnly> {
  const holder = absent.length > 0 || options.check ? remoteHolding(dataDir, store, remotes) : undefined;
  if (!holder) return { held: [], check: options.check ? { remote: null, found: 0, absent: 0, error: null } : null };
  const located = holder.locate(absent);
  if (!options.check) return { held: located.map(([hash]) => hash), check: null };
  const objects = await openRemoteStore(holder.remote, { credentials: options.credentialsOf?.(holder.remote.name) });
  let listed: Map<string, number>;
  try {
    listed = located.length > 0 ? await listData(objects, holder.projectId, options.signal) : new Map();
  } catch (error) {
    // The local result still stands; the check says why it could not be made.
    if (!isHindsightError(error) || !error.code.startsWith('REMOTE_')) throw error;
    return { held: located.map(([hash]) => hash), check: { remote: holder.remote.name, found: 0, absent: 0, error: error.message } };
  } finally {
    objects.close();
  }
  const held = located.filter(([, location]) => {
    if ('alone' in location) return listed.get(blobKey(holder.projectId, location.alone)) === location.size;
    const [, offset, length] = location.entry;
    const size = listed.get(packKey(holder.projectId, location.pack));
    return size !== undefined && offset + length <= size;
  });
  return {
    held: held.map(([hash]) => hash),
    check: { remote: holder.remote.name, found: held.length, absent: located.length - held.length, error: null },
  };
}
