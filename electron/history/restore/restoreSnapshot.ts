import { lstatSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { HindsightError } from '../../../shared/errors.js';
import type { FileEntry } from '../../../shared/history.js';
import type { UnwritableName } from '../../../shared/contract/values.js';
import type { Progress } from '../../../shared/progress.js';
import type { NewVersion, StatRow } from '../db/historyIndex.js';
import { stampOf } from '../statStamp.js';
import { fsError } from '../fsErrors.js';
import { throttleProgress, type ProgressSink } from '../progressThrottle.js';
import type { ProjectStore } from '../project/projectStore.js';
import { backgroundCloseWanted, closeFailuresError, makeCloser, type BackgroundCloseSetting, type Closer } from './backgroundCloser.js';
import { BulkWriter } from './bulkWriter.js';
import { removeEmptyParents } from './emptyFolders.js';
import { FolderMaker } from './folderMaker.js';
import { withRestoreTemps } from './restoreTemps.js';
import type { RestorePlan } from './planRestore.js';
import { assertProjectPath, safeTarget } from './safeTarget.js';
import { fsArg, fsPath } from '../paths/fsPath.js';

// Carries out a restore plan. The caller has already recorded what the disk holds (a rescan), so
// every file this overwrites or deletes has its current contents in the history. Writes go through
// the bulk writer (temp, close, rename); the restore is one snapshot of kind 'restore' naming only
// what was really written or deleted, and undoing it is restoring the snapshot before it.

export interface ExecuteOptions {
  onProgress?: ProgressSink;
  signal?: AbortSignal;
  /** A closer to use (tests inject one); default: background or inline as the platform wants. */
  closer?: Closer;
  /** The backgroundClose setting; HINDSIGHT_BACKGROUND_CLOSE still wins over it. */
  backgroundClose?: BackgroundCloseSetting;
}

/** What carrying out a plan did (the engine answers callers with the contract's RestoreSnapshotResult). */
export interface RestoreOutcome {
  /** The snapshot of kind 'restore'; undefined when nothing needed writing. */
  snapshotId: number | undefined;
  /** Restore this one to undo the restore. */
  undoSnapshotId: number | undefined;
  targetSnapshotId: number;
  written: number;
  recreated: number;
  deleted: number;
  unchanged: number;
  kept: number;
  /** Files and folders whose special bits from another history were dropped (plan.modes). */
  specialModesDropped: number;
  /** Files not written: Windows cannot hold their names (plan.skipped). */
  skipped: UnwritableName[];
  ms: number;
}

/** `origin` 'undo' when the restore brings back what the latest restore replaced (restoreOrigin.ts). */
export async function executeRestore(
  store: ProjectStore,
  plan: RestorePlan,
  options: ExecuteOptions = {},
  origin: 'restore' | 'undo' = 'restore',
): Promise<RestoreOutcome> {
  const started = performance.now();
  const before = store.index.latestSnapshotId();
  const jobs = [...plan.write, ...plan.recreate].sort((a, b) => (a.path < b.path ? -1 : 1));
  const toDelete = plan.deleteAdded ? plan.added : [];
  const total = { files: jobs.length + toDelete.length, bytes: jobs.reduce((sum, f) => sum + f.size, 0) };
  const done = { files: 0, bytes: 0 };
  const progress = throttleProgress(options.onProgress);
  const report = (phase: Progress['phase']): Progress => ({
    operation: 'restore',
    projectId: store.projectId,
    phase,
    filesDone: done.files,
    filesTotal: total.files,
    bytesDone: done.bytes,
    bytesTotal: total.bytes,
  });
  progress.finish(report('restore'));

  const closer = options.closer ?? makeCloser({ background: backgroundCloseWanted(process.env, process.platform, options.backgroundClose) });
  const folders = new SafeFolders(store.root);
  const byPath = new Map(jobs.map((f) => [f.path, f]));
  // Added files go first (they were recorded by the caller's rescan): one may stand where the
  // snapshot has a folder.
  const deleted: string[] = [];
  const deleteFailures: { path: string; error: Error }[] = [];
  for (const path of toDelete) {
    try {
      rmSync(fsArg(folders.target(path)), { force: true });
      deleted.push(path);
      done.files++;
      progress.update(report('restore'));
    } catch (error) {
      deleteFailures.push({ path, error: fsError('delete', path, error, 'RESTORE_FAILED') });
    }
  }
  let cancelled = false;
  const writer = await withRestoreTemps(
    store,
    jobs.map((f) => f.path),
    async (temps) => {
      const folderModes = new FolderMaker(store.root, (path) => plan.modes.folderMode(plan.snapshotId, path));
      const bulk = new BulkWriter(store.blobsDir, closer, temps, folderModes, (_path, bytes) => {
        done.files++;
        done.bytes += bytes;
        progress.update(report('restore'));
      });
      for (const file of jobs) {
        if (options.signal?.aborted) {
          cancelled = true;
          break;
        }
        let abs: string;
        try {
          abs = folders.target(file.path);
        } catch (error) {
          bulk.failures.push({ path: file.path, error: error as Error });
          continue;
        }
        await bulk.write(file.path, file, abs);
      }
      // The snapshot's empty folders are part of it (restic and borg restore them too).
      for (const path of cancelled ? [] : plan.emptyFolders) {
        try {
          folderModes.make(folders.target(path));
        } catch (error) {
          bulk.failures.push({ path, error: fsError('make the folder', path, error, 'RESTORE_FAILED') });
        }
      }
      await bulk.finish();
      return bulk;
    },
  );

  removeEmptyParents(store.root, deleted, plan.emptyFolders);
  progress.finish(report('commit'));
  const snapshotId = commitRestore(
    store,
    plan,
    writer.written.map((p) => byPath.get(p)!),
    deleted,
    origin,
  );
  progress.finish(report('done'));
  const recreatedPaths = new Set(plan.recreate.map((f) => f.path));
  const recreated = writer.written.filter((p) => recreatedPaths.has(p)).length;
  const result: RestoreOutcome = {
    snapshotId,
    undoSnapshotId: snapshotId === undefined ? undefined : before,
    targetSnapshotId: plan.snapshotId,
    written: writer.written.length - recreated,
    recreated,
    deleted: deleted.length,
    unchanged: plan.unchanged,
    kept: plan.deleteAdded ? 0 : plan.added.length,
    specialModesDropped: plan.modes.dropped,
    skipped: plan.skipped,
    ms: Math.round(performance.now() - started),
  };
  const details = { snapshotId, undoSnapshotId: result.undoSnapshotId, restored: writer.written.length };
  if (closer.failures.length > 0) throw closeFailuresError(closer.failures, details);
  const failures = [...writer.failures, ...deleteFailures];
  if (failures.length > 0) {
    const first = failures[0]!;
    throw new HindsightError(
      first.error instanceof HindsightError ? first.error.code : 'RESTORE_FAILED',
      `${first.error.message}${failures.length > 1 ? ` (and ${failures.length - 1} more files could not be restored)` : ''}`,
      { ...details, failed: failures.map((f) => ({ path: f.path, message: f.error.message })) },
    );
  }
  if (cancelled) throw new HindsightError('CANCELLED', 'The restore was cancelled; the files written so far are recorded.', details);
  return result;
}

function commitRestore(store: ProjectStore, plan: RestorePlan, written: FileEntry[], deleted: string[], origin: 'restore' | 'undo'): number | undefined {
  if (written.length === 0 && deleted.length === 0) return undefined;
  const versions: NewVersion[] = [];
  const stats: StatRow[] = [];
  for (const file of written) {
    const fromVersionId = store.index.versionIdAt(file.path, plan.snapshotId) ?? null;
    versions.push({ path: file.path, hash: file.hash, mode: file.mode, size: file.size, type: file.type, target: file.target ?? null, fromVersionId });
    const st = statNow(store.root, file);
    if (st) stats.push(st);
  }
  for (const path of deleted) versions.push({ path, hash: null, mode: 0, size: 0, type: null });
  versions.sort((a, b) => (a.path < b.path ? -1 : 1));
  const what = plan.prefix === null ? 'the project' : plan.prefix;
  return store.index.commitSnapshot({
    snapshot: {
      kind: 'restore',
      label: origin === 'undo' ? `Undid the restore of ${what}` : `Restored ${what} to snapshot ${plan.snapshotId}`,
      origin: { kind: origin, fromSnapshotId: plan.snapshotId },
    },
    versions,
    blobs: [],
    stats,
    removedStats: deleted,
  });
}

/** The stat row of a file just restored, so the next rescan need not hash it again. */
function statNow(root: string, file: FileEntry): StatRow | undefined {
  try {
    const st = lstatSync(fsPath(root, file.path), { bigint: true });
    return { path: file.path, type: file.type, ...stampOf(st), hash: file.hash, target: file.target ?? null };
  } catch {
    return undefined; // gone again already: the next rescan records that
  }
}

/** safeTarget with its parent-folder checks done once per folder instead of once per file. */
class SafeFolders {
  private readonly checked = new Set<string>();

  constructor(private readonly root: string) {}

  target(path: string): string {
    const slash = path.lastIndexOf('/');
    const dir = slash < 0 ? '' : path.slice(0, slash);
    if (!this.checked.has(dir)) {
      const abs = safeTarget(this.root, path);
      this.checked.add(dir);
      return abs;
    }
    assertProjectPath(path);
    return join(this.root, path);
  }
}
