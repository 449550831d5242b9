import type { ExportResult, ImportResult } from '../../../shared/contract.js';
import type { ProgressSink } from '../progressThrottle.js';
import type { BytesOnDemand } from '../project/bytesOnDemand.js';
import { projectFolder } from '../project/projectFolder.js';
import { projectIdOf } from '../project/projectId.js';
import type { ProjectStore } from '../project/projectStore.js';
import type { ProvisionalProject } from '../registry/provisionalProject.js';
import type { WriterWait } from '../project/writerLock.js';
import { backgroundCloseWanted, type BackgroundCloseSetting } from '../restore/backgroundCloser.js';
import { exportBundleTo, importBundleFrom, type BundleSource, type BundleTarget, type IncomingNamesSink } from './bundleTransfer.js';

// The engine's bundle operations (bundleTransfer.ts). An export carries the bytes: a clone's that
// are still only on the remote are fetched first. An import reads a bundle into the history of the
// folder it was recorded at, or of `as`: the folder must exist (outside the data folder), is
// registered like an opened one once the bundle's rows are checked, and its files are not touched;
// a refused import leaves no project registered and no store it made (registry/provisionalProject.ts).

export interface BundleContext {
  dataDir: string;
  /** Registers a folder for a write that may fail. */
  register: (root: string) => Promise<ProvisionalProject>;
  bytesOnDemand: BytesOnDemand;
  /** The backgroundClose setting; HINDSIGHT_BACKGROUND_CLOSE still wins over it. */
  backgroundClose: () => BackgroundCloseSetting;
  progressTo: (operationId: string | undefined) => ProgressSink;
}

type BundleOptions = Pick<WriterWait, 'onWait'> & { operationId?: string; signal?: AbortSignal };

export class BundleOperations {
  constructor(private readonly context: BundleContext) {}

  /** The history (or the part after `since`) as a bundle to a file (temp, then renamed) or a stream. */
  async export(store: ProjectStore, to: BundleTarget, options: BundleOptions & { since?: number; skipDamaged?: boolean }): Promise<ExportResult> {
    const { since, skipDamaged, signal } = options;
    await this.context.bytesOnDemand(store, notHeldBlobsAfter(store, since), signal);
    return exportBundleTo(store, to, { since, skipDamaged, signal, onProgress: this.context.progressTo(options.operationId) });
  }

  async import(from: BundleSource, options: BundleOptions & { as?: string; onIncomingNames?: IncomingNamesSink }): Promise<ImportResult> {
    const folderOf = (root: string) => projectFolder(root, this.context.dataDir);
    let registered: ProvisionalProject | undefined;
    try {
      return await importBundleFrom(from, {
        signal: options.signal,
        onProgress: this.context.progressTo(options.operationId),
        locate: (root) => projectIdOf(folderOf(root)),
        project: async (root) => {
          registered = await this.context.register(folderOf(root));
          return registered.project;
        },
        as: options.as,
        onIncomingNames: options.onIncomingNames,
        background: backgroundCloseWanted(process.env, process.platform, this.context.backgroundClose()),
        wait: { signal: options.signal, onWait: options.onWait },
      });
    } catch (error) {
      await registered?.undo();
      throw error;
    }
  }
}

/**
 * The blobs of the history after `since` this disk does not hold, listed only when asked (the list
 * costs a query); none when `since` is not a snapshot (the export refuses it).
 */
function notHeldBlobsAfter(store: ProjectStore, since: number | undefined): () => string[] {
  if (since !== undefined && !store.index.snapshotReads.snapshot(since)) return () => [];
  return () => store.index.bundles.blobsBetween(since ?? 0, store.index.snapshotReads.lastSnapshotId() ?? 0).flatMap((b) => (b.held ? [] : [b.hash]));
}
