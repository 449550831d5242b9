import type { RemoteStatus } from '../../../shared/contract.js';
import type { RemoteConfig } from '../config/configSchema.js';
import type { ConfigStore } from '../config/configStore.js';
import type { EngineEvents } from '../engineEvents.js';
import type { ProgressSink } from '../progressThrottle.js';
import type { WantedHashes } from '../project/bytesOnDemand.js';
import type { ProjectStore } from '../project/projectStore.js';
import { archiveTarget } from './archiveTarget.js';
import { bytesOnDemand, type CredentialsOf } from './fetch/bytesOnDemand.js';
import type { CloneContext, CloneRequest } from './fetch/cloneInto.js';
import type { CloneOptions, CloneResult } from './fetch/cloneProject.js';
import type { PullOptions, PullResult } from './fetch/pullProject.js';
import { AutoPush } from './push/autoPush.js';
import type { PushHistoryOptions } from './push/pushHistory.js';
import type { PushResult } from './push/pushProject.js';
import { configuredRemotes, requireRemote } from './remoteConfig.js';
import { remoteStatuses } from './remoteStatus.js';

// The engine's remote operations (docs/REMOTE.md), over the remotes of config.json: push, clone,
// pull, the background push, what the remotes hold, the bytes only they hold, and the credentials
// the app's keychain hands over (kept in memory only). Each one names a remote, or takes the only
// one; credentials come from the keychain when it gave some for that remote, else the AWS chain.
// The work of a push, a clone, a pull or a question to a remote (remoteWork.ts) is loaded on its
// first use: a command that never reaches a remote starts without it. The bytes a reader needs from
// a remote stay at hand (fetch/bytesOnDemand.ts): every read asks for them first.

export interface RemoteContext extends CloneContext {
  config: ConfigStore;
  /** A project's store that has a baseline (the engine's). */
  store: (projectId: string) => ProjectStore;
  progressTo: (operationId: string | undefined) => ProgressSink;
}

type KeychainCredentials = { accessKeyId: string; secretAccessKey: string };

export class RemoteOperations {
  private readonly keychain = new Map<string, KeychainCredentials>();
  private autoPush: AutoPush | undefined;

  constructor(private readonly context: RemoteContext) {}

  readonly credentialsOf: CredentialsOf = (remoteName) => this.keychain.get(remoteName);

  async push(store: ProjectStore, remoteName: string | undefined, options: PushHistoryOptions = {}): Promise<PushResult> {
    const remote = this.remote(remoteName);
    const { pushHistory } = await remoteWork();
    return pushHistory(this.context.dataDir, store, remote, { ...options, credentials: options.credentials ?? this.credentialsOf(remote.name) });
  }

  async clone(request: CloneRequest, options: CloneOptions = {}): Promise<CloneResult> {
    const remote = this.remote(request.remote);
    const { cloneInto } = await remoteWork();
    return cloneInto(this.context, remote, request, { ...options, credentials: options.credentials ?? this.credentialsOf(remote.name) });
  }

  /** History rows only, as the project's writer; the folder is not touched. */
  async pull(store: ProjectStore, remoteName: string | undefined, options: PullOptions = {}): Promise<PullResult> {
    const remote = this.remote(remoteName);
    const onProgress = options.onProgress ?? this.context.progressTo(options.operationId);
    const credentials = options.credentials ?? this.credentialsOf(remote.name);
    const { pullProject } = await remoteWork();
    return store.writer.hold(() => pullProject(this.context.dataDir, store, remote, { ...options, credentials, onProgress }), { signal: options.signal });
  }

  /** A remote's credentials from the app's keychain, or null to drop them. */
  useCredentials(remoteName: string, credentials: KeychainCredentials | null): null {
    if (credentials) this.keychain.set(remoteName, { ...credentials });
    else this.keychain.delete(remoteName);
    return null;
  }

  /** Each remote's state for a project, from what the pushes noted (no request is made). */
  status(store: ProjectStore): RemoteStatus[] {
    return remoteStatuses(store, this.remotes());
  }

  /** Pushes every project with new snapshots to every remote set, batched, one at a time. */
  startAutoPush(events: EngineEvents, options: { delayMs?: number; credentials?: PushHistoryOptions['credentials'] } = {}): AutoPush {
    this.autoPush?.stop();
    const autoPush = new AutoPush({
      delayMs: options.delayMs ?? 30_000,
      hasRemote: () => this.remotes().length > 0,
      push: async (projectId) => {
        for (const remote of this.remotes())
          await this.push(this.context.store(projectId), remote.name, { credentials: options.credentials, background: true });
      },
    });
    this.autoPush = autoPush;
    events.on((event) => {
      if (event.event === 'snapshot') autoPush.recorded(event.payload.projectId);
    });
    return autoPush;
  }

  /** Where a prune of this store moves what it thins: the remote named (remote/archiveTarget.ts). */
  archiveTarget(store: ProjectStore, remoteName: string) {
    const remote = this.remote(remoteName);
    return archiveTarget(this.context.dataDir, store, remote, () => this.push(store, remote.name));
  }

  /** Fetches the blobs a reader is about to need that only a remote holds. */
  readonly bytesOnDemand = (store: ProjectStore, hashes: WantedHashes, signal?: AbortSignal): Promise<void> =>
    bytesOnDemand(this.context.dataDir, store, () => this.remotes(), hashes, { credentialsOf: this.credentialsOf, signal });

  /** verify's question about blobs absent here; with `check` the remote is asked (one listing). */
  remoteOnly(store: ProjectStore, check: boolean | undefined) {
    return async (absent: string[], signal?: AbortSignal) =>
      (await remoteWork()).remoteOnlyBlobs(this.context.dataDir, store, this.remotes(), absent, { check, credentialsOf: this.credentialsOf, signal });
  }

  private remotes(): readonly RemoteConfig[] {
    return configuredRemotes(this.context.config.loadConfig().config);
  }

  private remote(name: string | undefined): RemoteConfig {
    return requireRemote(this.context.config.requireConfig(), name);
  }
}

function remoteWork() {
  return import('./remoteWork.js');
}
