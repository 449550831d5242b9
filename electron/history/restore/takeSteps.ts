import { rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { HindsightError } from '../../../shared/errors.js';
import { faultPoint } from '../faultPoint.js';
import { fsError } from '../fsErrors.js';
import { fsArg } from '../paths/fsPath.js';
import type { ProjectStore } from '../project/projectStore.js';
import { closeFailuresError, type Closer } from './backgroundCloser.js';
import { BulkWriter } from './bulkWriter.js';
import { FolderMaker } from './folderMaker.js';
import type { RestorePlan } from './planRestore.js';
import type { RestoreStep } from './restoreSteps.js';
import type { SpecialModes } from './specialModes.js';
import type { RestoreTemps } from '../project/restoreTemps.js';
import { assertProjectPath, safeTarget } from '../paths/safeTarget.js';

// Takes a plan's steps in their order (restoreSteps.ts): removals and folders first, then every
// version written through the bulk writer (temp, close, rename). Any step that fails, a close
// that fails, or a cancel throws once every write in flight has settled: the caller then puts
// every step back (restoreRollback.ts), so a restore is done whole or not at all.

export interface StepRun {
  closer: Closer;
  signal?: AbortSignal;
  /** Told each file deleted or written, with the bytes it wrote. */
  onStep: (bytes: number) => void;
}

/** What a run needs of a plan: a snapshot restore's (planRestore.ts), or one file's (fileRestoreSteps.ts). */
export interface StepsToTake extends Pick<RestorePlan, 'steps' | 'snapshotId'> {
  modes: Pick<SpecialModes, 'folderMode'>;
  /** The version each write puts back, named when its stored contents turn out damaged. */
  versionIds?: ReadonlyMap<string, number>;
}

export async function takeSteps(store: ProjectStore, plan: StepsToTake, temps: RestoreTemps, run: StepRun): Promise<void> {
  const folders = new SafeFolders(store.root);
  // The modes the plan worked out for the folders it makes (each counted once in plan.modes).
  const planned = new Map(plan.steps.filter((s) => s.op === 'makeFolder').map((s) => [s.path, s.after?.mode]));
  const folderModes = new FolderMaker(store.root, (path) => (planned.has(path) ? planned.get(path) : plan.modes.folderMode(plan.snapshotId, path)));
  const writes = plan.steps.filter((s) => s.op === 'write');
  for (const step of plan.steps) {
    if (step.op === 'write') continue;
    if (run.signal?.aborted) throw cancelled();
    clearOrMake(step, folders.target(step.path), folderModes);
    if (step.op === 'remove') run.onStep(0);
    faultPoint('restore-step-taken');
  }
  faultPoint('restore-cleared');
  const bulk = new BulkWriter(store.blobs, run.closer, temps, folderModes, (_path, bytes) => run.onStep(bytes));
  let stopped = false;
  for (const step of writes) {
    if (run.signal?.aborted) {
      stopped = true;
      break;
    }
    let abs: string;
    try {
      abs = folders.target(step.path);
    } catch (error) {
      bulk.failures.push({ path: step.path, error: error as Error });
      continue;
    }
    const after = step.after as Extract<RestoreStep['after'], { hash: string }>;
    const versionId = plan.versionIds?.get(step.path);
    await bulk.write(step.path, { ...after, target: after.target ?? null, ...(versionId === undefined ? {} : { versionId }) }, abs);
    faultPoint('restore-step-taken');
  }
  await bulk.finish();
  faultPoint('restore-written');
  if (run.closer.failures.length > 0) throw closeFailuresError(run.closer.failures);
  const first = bulk.failures[0];
  if (first) {
    const more = bulk.failures.length > 1 ? ` (and ${bulk.failures.length - 1} more files could not be restored)` : '';
    // The first failure's own details (a damaged blob's hash and path) stay on the error.
    const own = first.error instanceof HindsightError ? first.error : undefined;
    throw new HindsightError(own?.code ?? 'RESTORE_FAILED', `${first.error.message}${more}`, {
      ...own?.details,
      failed: bulk.failures.map((f) => ({ path: f.path, message: f.error.message })),
    });
  }
  if (stopped) throw cancelled();
}

function clearOrMake(step: RestoreStep, abs: string, folderModes: FolderMaker): void {
  const verb = step.op === 'remove' ? 'delete' : step.op === 'removeFolder' ? 'remove the folder' : 'make the folder';
  try {
    if (step.op === 'remove') rmSync(fsArg(abs), { force: true });
    else if (step.op === 'removeFolder') rmdirSync(fsArg(abs));
    else folderModes.make(abs);
  } catch (error) {
    throw fsError(verb, step.path, error, 'RESTORE_FAILED');
  }
}

function cancelled(): HindsightError {
  return new HindsightError('CANCELLED', 'The restore was cancelled.');
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
