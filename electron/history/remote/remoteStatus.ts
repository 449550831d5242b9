import type { RemoteStatus } from '../../../shared/contract.js';
import type { RemoteConfig } from '../config/configSchema.js';
import type { ProjectStore } from '../project/projectStore.js';
import { remoteIdentity } from './remoteConfig.js';

// What the Store tab says about each remote, from what the last pushes noted in history.db: no
// request to the remote, so it is instant and works offline.

export function remoteStatuses(store: ProjectStore, remotes: readonly RemoteConfig[]): RemoteStatus[] {
  const links = new Map(store.index.remotes.remoteLinkStates().map((link) => [link.remote, link]));
  return remotes.map((remote) => {
    const link = links.get(remoteIdentity(remote));
    const pushedOrigin = link?.pushedOrigin ?? 0;
    const behind = store.index.remotes.countOwnSnapshotsAfter(pushedOrigin);
    const lastError = link?.lastError ?? null;
    const state: RemoteStatus['state'] = lastError ? 'error' : !link?.pushedAt ? 'never-pushed' : behind > 0 ? 'behind' : 'up-to-date';
    return { name: remote.name, url: remote.url, state, behind, pushed: link?.pushedSnapshots ?? 0, lastPushAt: link?.pushedAt ?? null, lastError };
  });
}
