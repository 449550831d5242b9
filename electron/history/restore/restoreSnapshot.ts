import { lstatSync } from 'node:fs';
import { HindsightError } from '../../../shared/errors.js';
import type { FileEntry } from '../../../shared/history.js';
import type { UnwritableName } from '../../../shared/contract/values.js';
import type { Progress } from '../../../shared/progress.js';
import type { NewVersion, StatRow } from '../db/historyIndex.js';
import { faultPoint, failurePoint } from '../faultPoint.js';
import { stampOf } from '../statStamp.js';
import { fsError } from '../fsErrors.js';
import { throttleProgress, type ProgressSink } from '../progressThrottle.js';
import type { ProjectStore } from '../project/projectStore.js';
import { backgroundCloseWanted, makeCloser, type BackgroundCloseSetting, type Closer } from './backgroundCloser.js';
import { RestoreTemps } from '../project/restoreTemps.js';
import { stepInfos, type RestorePlan } from './planRestore.js';
import type { RestoreStepInfo } from '../../../shared/contract/values.js';
import { rollBack, type RollbackOutcome } from './restoreRollback.js';
import { takeSteps } from './takeSteps.js';
import { fsPath } from '../paths/fsPath.js';

// Carries out a restore plan, whole or not at all. The caller has already recorded what the disk
// holds (a rescan), so every file this overwrites or deletes has its current contents in the
// history. The plan's steps are journaled in the store with the temps (restoreTemps.ts) before the
// first is taken; when one fails (or the restore is cancelled) every step taken is put back from
// the history (restoreRollback.ts) and nothing is recorded; a restore killed midway is completed
// or put back by the next writer (restoreRecovery.ts). The restore is one snapshot of kind
// 'restore' naming what it wrote and deleted, and undoing it is restoring the snapshot before it.

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
  /** The steps taken, in order. */
  steps: RestoreStepInfo[];
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
  const before = store.index.snapshotReads.latestSnapshotId();
  const jobs = [...plan.write, ...plan.recreate];
  const toDelete = plan.steps.filter((s) => s.op === 'remove');
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
  const temps = RestoreTemps.begin(
    store.storeDir,
    plan.steps.map((s) => s.path),
    { steps: plan.steps, latestBefore: before ?? null },
  );
  let snapshotId: number | undefined;
  try {
    await takeSteps(store, plan, temps, {
      closer,
      signal: options.signal,
      onStep: (bytes) => {
        done.files++;
        done.bytes += bytes;
        progress.update(report('restore'));
      },
    });
    // The folders the deletions emptied went as steps of the plan (restoreSteps.ts).
    const deleted = toDelete.map((s) => s.path);
    progress.finish(report('commit'));
    failurePoint('restore-commit');
    snapshotId = commitRestore(store, plan, deleted, origin);
    faultPoint('restore-committed');
  } catch (error) {
    const back = rollBack(store.root, store.blobs, plan.steps, temps);
    temps.abandon(store.root);
    throw putBackError(error, back, plan.prefix ?? 'the project');
  }
  temps.end();
  progress.finish(report('done'));
  const deleted = toDelete.length;
  return {
    snapshotId,
    undoSnapshotId: snapshotId === undefined ? undefined : before,
    targetSnapshotId: plan.snapshotId,
    written: plan.write.length,
    recreated: plan.recreate.length,
    deleted,
    unchanged: plan.unchanged,
    kept: plan.deleteAdded ? 0 : plan.added.length,
    specialModesDropped: plan.modes.dropped,
    steps: stepInfos(plan.steps),
    skipped: plan.skipped,
    ms: Math.round(performance.now() - started),
  };
}

/** A restore (of `what`) that failed: its error, saying every change was put back (or naming what could not be). */
export function putBackError(error: unknown, back: RollbackOutcome, what: string): HindsightError {
  const failure = error instanceof HindsightError ? error : fsError('restore', what, error, 'RESTORE_FAILED');
  const left = back.leftAlone.map((l) => l.path);
  const how =
    left.length === 0
      ? 'nothing was restored and every change was put back.'
      : `nothing was recorded as restored; ${left.length} path${left.length === 1 ? '' : 's'} could not be put back: ${left.slice(0, 5).join(', ')}.`;
  return new HindsightError(failure.code, `${failure.message.replace(/\.$/, '')}; ${how}`, {
    ...failure.details,
    snapshotId: undefined,
    putBack: back.putBack,
    leftAlone: back.leftAlone,
  });
}

function commitRestore(store: ProjectStore, plan: RestorePlan, deleted: string[], origin: 'restore' | 'undo'): number | undefined {
  const written = [...plan.write, ...plan.recreate];
  if (written.length === 0 && deleted.length === 0) return undefined;
  const versions: NewVersion[] = [];
  const stats: StatRow[] = [];
  for (const file of written) {
    const fromVersionId = store.index.versions.versionIdAt(file.path, plan.snapshotId) ?? null;
    versions.push({ path: file.path, hash: file.hash, mode: file.mode, size: file.size, type: file.type, target: file.target ?? null, fromVersionId });
    const st = statNow(store.root, file);
    if (st) stats.push(st);
  }
  for (const path of deleted) versions.push({ path, hash: null, mode: 0, size: 0, type: null });
  versions.sort((a, b) => (a.path < b.path ? -1 : 1));
  // The undo of an earlier restore (plan.undoOf) is named after what that restore touched.
  const undone = plan.undoOf === null ? undefined : store.index.snapshotReads.snapshot(plan.undoOf);
  const what = undone ? undone.scope || 'the project' : plan.prefix === null ? 'the project' : plan.prefix;
  return store.index.commitSnapshot({
    snapshot: {
      kind: 'restore',
      label: origin === 'undo' || undone ? `Undid the restore of ${what}` : `Restored ${what} to snapshot ${plan.snapshotId}`,
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
