import type { PruneResult, RetentionStatus } from '../../shared/contract.js';
import type { HindsightErrorData } from '../../shared/errors.js';
import { asError, call } from '../api/hindsight.js';
import type { Slice } from './appState.js';
import { holdRefresh } from './refresh.js';

// The history against its budget (Store tab), cleaning up (a preview first: what goes, what
// stays and why; then the prune), and pins (timeline and versions). Writes run under holdRefresh:
// the view reloads once, after the answer.

export interface RetentionSlice {
  retention: RetentionStatus | null;
  retentionError: HindsightErrorData | null;
  prunePreview: PruneResult | null;
  pruneResult: PruneResult | null;
  pruneError: HindsightErrorData | null;
  pruning: boolean;
  loadRetention(): Promise<void>;
  resetRetention(): void;
  previewPrune(): Promise<void>;
  cancelPrune(): void;
  confirmPrune(): Promise<void>;
  setPin(target: { snapshotId: number } | { versionId: number }, pinned: boolean): Promise<void>;
  /** Where a prune moves what it thins (retention.archiveToRemote): a remote's name, or null to delete it. */
  setArchiveRemote(remote: string | null): Promise<void>;
}

export const createRetentionSlice: Slice<RetentionSlice> = (set, get) => ({
  retention: null,
  retentionError: null,
  prunePreview: null,
  pruneResult: null,
  pruneError: null,
  pruning: false,

  loadRetention: async () => {
    const projectId = get().currentProjectId;
    if (!projectId) return;
    try {
      const retention = await call('retentionStatus', { projectId, holders: 10 });
      if (get().currentProjectId === projectId) set({ retention, retentionError: null });
    } catch (error) {
      set({ retentionError: asError(error).toJSON() });
    }
  },

  resetRetention: () => set({ retention: null, retentionError: null, prunePreview: null, pruneResult: null, pruneError: null, pruning: false }),

  previewPrune: async () => {
    const projectId = get().currentProjectId;
    if (!projectId || get().pruning) return;
    set({ pruning: true, pruneError: null, pruneResult: null });
    try {
      const prunePreview = await call('prune', { projectId, dryRun: true });
      set({ prunePreview, pruning: false });
    } catch (error) {
      set({ pruneError: asError(error).toJSON(), pruning: false });
    }
  },

  cancelPrune: () => set({ prunePreview: null }),

  confirmPrune: async () => {
    const projectId = get().currentProjectId;
    if (!projectId || get().pruning) return;
    set({ pruning: true, pruneError: null });
    try {
      const pruneResult = await holdRefresh(() => call('prune', { projectId, dryRun: false }));
      set({ pruneResult, prunePreview: null, pruning: false });
      await Promise.all([get().loadRetention(), get().loadStats(), get().loadTimeline()]);
    } catch (error) {
      set({ pruneError: asError(error).toJSON(), pruning: false });
    }
  },

  setArchiveRemote: async (remote) => {
    const retention = get().retention;
    if (!retention) return;
    try {
      await call('editConfig', { settings: { retention: { ...retention.policy, archiveToRemote: remote } } });
      await get().loadRetention();
    } catch (error) {
      set({ retentionError: asError(error).toJSON() });
    }
  },

  setPin: async (target, pinned) => {
    const projectId = get().currentProjectId;
    if (!projectId) return;
    try {
      const pins = await call('setPin', { projectId, ...target, pinned });
      const retention = get().retention;
      if (retention && get().currentProjectId === projectId) set({ retention: { ...retention, pins } });
      else await get().loadRetention();
    } catch (error) {
      get().pushToast({ tone: 'error', message: asError(error).message });
    }
  },
});
