import type { ProjectStore } from '../project/projectStore.js';
import type { BeforeCommitHook } from './commitHooks.js';
import { insertCheckpoint } from './checkpoint.js';
import { commitPrepared, type PreparedChanges } from './recordPaths.js';

// Writes one group of changes (from the watcher or a rescan) as a snapshot of kind 'change'. Before
// it: the before-commit hooks, and a checkpoint when the group deletes or rewrites many files at
// once (a branch switch, a formatter, an rm -r), so "just before that" is one click away.

export interface MassChangeRule {
  /** A group replacing at least this many files is a mass change. */
  files: number;
  /** ...or at least this share of the files tracked before it (with at least `minFiles`). */
  share: number;
  minFiles: number;
}

export const DEFAULT_MASS_CHANGE: MassChangeRule = { files: 50, share: 0.5, minFiles: 10 };

export interface ChangeGroupOptions {
  beforeCommit?: BeforeCommitHook;
  massChange?: MassChangeRule;
  label?: string | null;
  /** Where HEAD stood when these changes were made, when not where it stands now (edits made before a checkout). */
  at?: { head: string; branch: string | null };
}

export interface ChangeGroupResult {
  snapshotId: number | undefined;
  checkpointId: number | undefined;
  changed: string[];
}

export async function commitChangeGroup(store: ProjectStore, prepared: PreparedChanges, options: ChangeGroupOptions = {}): Promise<ChangeGroupResult> {
  if (prepared.versions.length === 0) {
    // No file changed; a move of HEAD the history has not recorded yet (a checkout to a commit
    // with the same tree, a commit of edits already recorded) is still a snapshot, with no versions.
    const cause = (await options.beforeCommit?.(store, [])) ?? undefined;
    const { snapshotId } = commitPrepared(
      store,
      prepared,
      { kind: 'change', label: cause?.label ?? null, origin: cause?.origin, ...options.at },
      cause !== undefined,
    );
    return { snapshotId, checkpointId: undefined, changed: [] };
  }
  const paths = prepared.versions.map((v) => v.path);
  const latestBefore = store.index.snapshotReads.latestSnapshotId();
  const cause = (await options.beforeCommit?.(store, paths)) ?? undefined;
  let checkpointId: number | undefined;
  if (
    !hookWroteCheckpoint(store, latestBefore) &&
    isMassChange(prepared.replaced, store.index.statCache.trackedFiles(), options.massChange ?? DEFAULT_MASS_CHANGE)
  ) {
    checkpointId = insertCheckpoint(store, `Before ${prepared.replaced} files changed at once`);
  }
  const { snapshotId } = commitPrepared(store, prepared, {
    kind: 'change',
    label: options.label ?? cause?.label ?? null,
    origin: cause?.origin,
    ...options.at,
  });
  return { snapshotId, checkpointId, changed: paths };
}

export function isMassChange(replaced: number, tracked: number, rule: MassChangeRule): boolean {
  if (replaced >= rule.files) return true;
  return replaced >= rule.minFiles && tracked > 0 && replaced / tracked >= rule.share;
}

/** A hook (git's HEAD checkpoint) already marked the moment before this group: one mark is enough. */
function hookWroteCheckpoint(store: ProjectStore, latestBefore: number | undefined): boolean {
  const latest = store.index.snapshotReads.latestSnapshotId();
  return latest !== latestBefore && latest !== undefined && store.index.snapshotReads.snapshot(latest)?.kind === 'checkpoint';
}
