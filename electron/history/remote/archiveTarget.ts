import { HindsightError } from '../../../shared/errors.js';
import type { RemoteConfig } from '../config/configSchema.js';
import type { ProjectStore } from '../project/projectStore.js';
import { machineIdentity } from './machineIdentity.js';
import { remoteIdentity } from './remoteConfig.js';
import { remoteProjectId } from './remoteProject.js';

// Where a prune moves what it thins (retention/archiveThinned.ts's ArchiveTarget): the remote
// named, which must be the one this history's bytes come from, or a clone's older versions would
// be spread over two remotes and fetched from neither.

export function archiveTarget(dataDir: string, store: ProjectStore, remote: RemoteConfig, push: () => Promise<unknown>) {
  const source = store.index.getMeta('remote.clonedFrom') ?? store.index.getMeta('remote.pulledFrom');
  if (source !== undefined && source !== remote.name) {
    throw new HindsightError(
      'BAD_REQUEST',
      `This history came from the remote ${source}; its thinned versions can only be moved there, not to ${remote.name}.`,
      { remote: remote.name },
    );
  }
  // Read at each question: the push before the move adds to it.
  const ledger = () => store.index.remotes.remoteLedger(remoteIdentity(remote), { projectId: remoteProjectId(store), machineId: machineIdentity(dataDir).id });
  return {
    remote: remote.name,
    push,
    holds: (hash: string) => ledger().locate(hash) !== undefined,
  };
}
