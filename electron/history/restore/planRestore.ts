import type { RestorePreview, RestoreStepInfo } from '../../../shared/contract/values.js';
import { HindsightError } from '../../../shared/errors.js';
import type { FileEntry } from '../../../shared/history.js';
import { isUnderPrefix } from '../../../shared/projectPath.js';
import type { ProjectStore } from '../project/projectStore.js';
import { requireSnapshot } from '../db/requireSnapshot.js';
import { assertProjectPath } from '../paths/safeTarget.js';
import { SpecialModes } from './specialModes.js';
import { planSteps, type RestoreStep, type StepCheck } from './restoreSteps.js';
import { nameRulesOf } from '../paths/nameRules.js';
import { withCurrentSpelling } from './otherSpellings.js';
import { withoutUnwritable } from './windowsSkips.js';
import type { UnwritableName } from '../../../shared/contract/values.js';

// What restoring a snapshot (the whole project, or one folder or file of it) would do, worked out
// from the index alone: the caller brings the history up to date with the disk first (a rescan),
// so "latest" is what the disk holds. Files added after that snapshot are listed apart: they are
// kept unless the user asks to delete them.

export interface RestorePlan {
  snapshotId: number;
  prefix: string | null;
  deleteAdded: boolean;
  /** Present now with other contents, mode or type: overwritten with the snapshot's version. */
  write: FileEntry[];
  /** Gone now: written again, their folders recreated. */
  recreate: FileEntry[];
  /** Already as in the snapshot: left alone. */
  unchanged: number;
  /** Present now, absent from the snapshot: kept, or deleted with deleteAdded (recorded first). */
  added: string[];
  /** The snapshot's empty folders under the prefix: made (with their recorded modes) if missing. */
  emptyFolders: string[];
  /** Every step the restore takes, in order (restoreSteps.ts): what a dry run shows is what runs. */
  steps: RestoreStep[];
  /** Files not written: Windows cannot hold their names (windowsSkips.ts). */
  skipped: UnwritableName[];
  /** The modes the files (already applied to write, recreate) and folders get: special bits from another history dropped unless kept. */
  modes: SpecialModes;
  /** The restore this plan undoes (only its paths), or null. */
  undoOf: number | null;
}

export interface PlanOptions {
  prefix?: string;
  deleteAdded?: boolean;
  /** Keep setuid/setgid/sticky bits that came from another history (restore/specialModes.ts). */
  keepSpecialModes?: boolean;
  /** More checks of the planned steps before anything is written (a folder's name rules). */
  checks?: readonly StepCheck[];
  /** The undo of restore N (restore/undoScope.ts): only the paths it changed, as the snapshot before it held them. */
  undo?: { of: number; paths: ReadonlySet<string> };
}

export function planRestore(store: ProjectStore, snapshotId: number, options: PlanOptions = {}): RestorePlan {
  requireSnapshot(store.index, snapshotId);
  const prefix = normalisePrefix(options.prefix);
  // Never into the data folder, should an older history have recorded it.
  const own = store.dataFolder;
  const only = options.undo?.paths;
  const within = (f: FileEntry) =>
    (prefix === null || isUnderPrefix(f.path, prefix)) && (own === undefined || !isUnderPrefix(f.path, own)) && (only === undefined || only.has(f.path));
  const modes = new SpecialModes(store.index, options.keepSpecialModes === true);
  const all = store.index.files.filesAt(snapshotId);
  const current = new Map(
    store.index.files
      .filesAt()
      .filter(within)
      .map((f) => [f.path, f]),
  );
  const recorded = new Map(current);
  const spelled = withCurrentSpelling(modes.files(all.filter(within), snapshotId), current, nameRulesOf(store.root));
  const { kept: target, skipped } = withoutUnwritable(spelled, store.root);
  const emptyFolders = store.index.files.emptyFoldersAt(snapshotId, all).filter((path) => within({ path } as FileEntry));
  if (prefix !== null && target.length === 0 && current.size === 0 && emptyFolders.length === 0) {
    throw new HindsightError('NOT_FOUND', `Nothing under ${prefix} at snapshot ${snapshotId} or now.`, { prefix, snapshotId });
  }
  const plan: RestorePlan = {
    snapshotId,
    prefix,
    deleteAdded: options.deleteAdded === true,
    write: [],
    recreate: [],
    unchanged: 0,
    added: [],
    emptyFolders,
    steps: [],
    skipped,
    modes,
    undoOf: options.undo?.of ?? null,
  };
  for (const want of target) {
    const now = current.get(want.path);
    current.delete(want.path);
    if (!now) plan.recreate.push(want);
    else if (sameVersion(now, want)) plan.unchanged++;
    else plan.write.push(want);
  }
  plan.added = [...current.keys()];
  plan.steps = planSteps(
    store.root,
    {
      write: plan.write,
      recreate: plan.recreate,
      emptyFolders,
      added: [...current.values()],
      current: (path) => recorded.get(path),
      deleteAdded: plan.deleteAdded,
      folderMode: (path) => modes.folderMode(snapshotId, path),
    },
    options.checks,
  );
  return plan;
}

function sameVersion(a: FileEntry, b: FileEntry): boolean {
  return a.hash === b.hash && a.mode === b.mode && a.type === b.type && (a.target ?? null) === (b.target ?? null);
}

function normalisePrefix(prefix: string | undefined): string | null {
  if (prefix === undefined || prefix === '' || prefix === '.' || prefix === './') return null;
  const clean = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  assertProjectPath(clean);
  return clean;
}

/** The plan as a preview: paths, not entries. `pathPrefix` is the limit as the caller gave it. */
/** `branchNow`: the branch checked out now (the store's git), to warn about a snapshot taken on another. */
export function planSummary(
  plan: RestorePlan,
  pathPrefix = '',
  context: { snapshotBranch: string | null; branchNow: string | null } = { snapshotBranch: null, branchNow: null },
): RestorePreview {
  return {
    ...context,
    snapshotId: plan.snapshotId,
    pathPrefix,
    prefix: plan.prefix,
    deleteAdded: plan.deleteAdded,
    write: plan.write.map((f) => f.path),
    recreate: plan.recreate.map((f) => f.path),
    unchanged: plan.unchanged,
    added: plan.added,
    delete: plan.deleteAdded ? plan.added : [],
    specialModesDropped: plan.modes.dropped,
    steps: stepInfos(plan.steps),
    ...(plan.skipped.length > 0 ? { skipped: plan.skipped } : {}),
  };
}

/** The steps as the contract lists them. */
export function stepInfos(steps: readonly RestoreStep[]): RestoreStepInfo[] {
  return steps.map((s) => ({ op: s.op, path: s.path }));
}
