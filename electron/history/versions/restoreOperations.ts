import type { MaterializeResult, RescanResult, RestoreFileResult, RestorePreview, RestoreSnapshotResult } from '../../../shared/contract.js';
import type { GitSource, SnapshotInfo } from '../../../shared/history.js';
import type { HunkRange } from '../../../shared/contract.js';
import type { ProgressSink } from '../progressThrottle.js';
import type { BytesOnDemand } from '../project/bytesOnDemand.js';
import type { OpenProject } from '../registry/openProject.js';
import type { WriterWait } from '../project/writerLock.js';
import type { BackgroundCloseSetting } from '../restore/backgroundCloser.js';
import type { PlanOptions } from '../restore/planRestore.js';
import { previewedRestore, restoredBlobs, restoredSnapshot } from '../restore/restoreSnapshotResult.js';
import type { ProjectStore } from '../project/projectStore.js';
import { snapshotIntoFolder, type SnapshotIntoFolderOptions } from '../restore/snapshotIntoFolder.js';
import { undoScope } from '../restore/undoScope.js';
import type { ProjectRecorder, RestoreOptions } from './projectRecorder.js';
import { isUnderPrefix } from '../../../shared/projectPath.js';
import { requireSnapshot } from '../db/requireSnapshot.js';
import { assertNoNameCollisions } from '../restore/nameCollisions.js';
import type { RescanOptions, RescanOutcome } from './rescan.js';

// The engine's writing operations on a project with a history, through its recorder: rescans,
// checkpoints and restores, answered with the contract's types; and a snapshot written into a
// folder of its own. What a restore writes that only a remote holds (a clone's older versions) is
// fetched first; the backgroundClose setting applies unless the caller gives its own. Progress
// goes to the caller's operation id.

export interface RestoreContext {
  dataDir: string;
  bytesOnDemand: BytesOnDemand;
  backgroundClose: () => BackgroundCloseSetting;
  progressTo: (operationId: string | undefined) => ProgressSink;
}

type Operation = { operationId?: string };

type IntoFolderOptions = Pick<SnapshotIntoFolderOptions, 'source' | 'keepSpecialModes' | 'signal'> & Operation & { backgroundClose?: BackgroundCloseSetting };

export class RestoreOperations {
  constructor(
    private readonly recorder: ProjectRecorder,
    private readonly context: RestoreContext,
  ) {}

  /** Brings the history up to date with the disk (what every open does). */
  async rescan(project: OpenProject, options: Omit<RescanOptions, 'onProgress'> & WriterWait & Operation): Promise<RescanResult> {
    const { operationId, ...rest } = options;
    return rescanResult(project.projectId, await this.recorder.rescan(project, { ...rest, onProgress: this.context.progressTo(operationId) }));
  }

  /** A labelled snapshot of the project as it is now. */
  async checkpoint(project: OpenProject, label: string): Promise<SnapshotInfo> {
    return project.store.index.snapshotReads.snapshot(await this.recorder.checkpoint(project, label))!;
  }

  /** What restoring a snapshot (or a folder or file of it) would write, recreate, leave and keep. */
  async preview(project: OpenProject, snapshotId: number, options: PlanOptions): Promise<RestorePreview> {
    assertNoNameCollisions(snapshotPaths(project.store, snapshotId, options.prefix), project.store.root, snapshotId);
    return this.recorder.preview(project, snapshotId, options);
  }

  /** keepSpecialModes: keep setuid/setgid/sticky bits of a version from another history (restore/specialModes.ts). */
  async file(project: OpenProject, path: string, versionId: number, options: { keepSpecialModes?: boolean }): Promise<RestoreFileResult> {
    await this.context.bytesOnDemand(project.store, [project.store.index.versions.version(versionId)?.hash]);
    return this.recorder.restoreFile(project, path, versionId, options);
  }

  /** One changed block of the diff between a version and the file on disk (restore/restoreHunk.ts). */
  async hunk(project: OpenProject, path: string, versionId: number, hunk: HunkRange, diskHash: string): Promise<RestoreFileResult> {
    await this.context.bytesOnDemand(project.store, [project.store.index.versions.version(versionId)?.hash]);
    return this.recorder.restoreHunk(project, path, versionId, hunk, diskHash);
  }

  /** A file as git's committed (HEAD) or staged (INDEX) version. */
  fromGit(project: OpenProject, path: string, source: GitSource): Promise<RestoreFileResult> {
    return this.recorder.restoreFromGit(project, path, source);
  }

  /** A snapshot (or a folder or file of it); with dryRun only its preview. `ms` counts the fetch of remote-only bytes too. */
  async snapshot(
    project: OpenProject,
    snapshotId: number,
    options: Omit<RestoreOptions, 'onProgress'> & Operation & { dryRun?: boolean },
  ): Promise<RestoreSnapshotResult> {
    const started = performance.now();
    const { dryRun = false, operationId, ...rest } = options;
    // The dry run and the run refuse alike, before the history or the folder is touched.
    assertNoNameCollisions(snapshotPaths(project.store, snapshotId, rest.prefix), project.store.root, snapshotId);
    if (dryRun) return previewedRestore(await this.recorder.preview(project, snapshotId, rest), snapshotId, started);
    await this.context.bytesOnDemand(project.store, restoredBlobs(project.store, snapshotId, rest.prefix), rest.signal);
    const run = { backgroundClose: this.context.backgroundClose(), ...rest, onProgress: this.context.progressTo(operationId) };
    return restoredSnapshot(await this.recorder.restore(project, snapshotId, run), started);
  }

  /**
   * The undo of a restore at any later time: the snapshot just before it restored, limited to the
   * paths the restore changed, files it added deleted (recorded first); with dryRun the preview.
   */
  undo(
    project: OpenProject,
    restoreSnapshotId: number,
    options: Omit<RestoreOptions, 'onProgress'> & Operation & { dryRun?: boolean },
  ): Promise<RestoreSnapshotResult> {
    const { target, paths } = undoScope(project.store, restoreSnapshotId);
    return this.snapshot(project, target, { ...options, prefix: undefined, deleteAdded: true, undo: { of: restoreSnapshotId, paths } });
  }

  /** A snapshot written into a new or empty folder, from the store or from `source` (restore/snapshotIntoFolder.ts). */
  materialize(store: ProjectStore, snapshotId: number, into: string, options: IntoFolderOptions): Promise<MaterializeResult> {
    const { operationId, backgroundClose = this.context.backgroundClose(), ...rest } = options;
    const { dataDir, bytesOnDemand } = this.context;
    return snapshotIntoFolder(store, snapshotId, into, { ...rest, dataDir, bytesOnDemand, backgroundClose, onProgress: this.context.progressTo(operationId) });
  }
}

/** The paths a restore of the snapshot (under `prefix`) writes. */
function snapshotPaths(store: ProjectStore, snapshotId: number, prefix?: string): string[] {
  requireSnapshot(store.index, snapshotId);
  const paths = store.index.files.filesAt(snapshotId).map((f) => f.path);
  return prefix === undefined ? paths : paths.filter((path) => isUnderPrefix(path, prefix));
}

/** A rescan as the contract answers it (RescanResult): what changed counted, absent snapshots null. */
export function rescanResult(projectId: string, outcome: RescanOutcome): RescanResult {
  return {
    projectId,
    snapshotId: outcome.snapshotId ?? null,
    checkpointId: outcome.checkpointId ?? null,
    changed: outcome.changed.length,
    paths: outcome.paths,
    hashed: outcome.hashed,
    ms: outcome.ms,
    unreadable: outcome.unreadable,
  };
}
