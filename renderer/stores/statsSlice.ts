import type { PullResult, RemoteStatus, StoreStats, VerifyResult } from '../../shared/contract.js';
import type { HindsightErrorData } from '../../shared/errors.js';
import type { Progress } from '../../shared/progress.js';
import { asError, call, newOperationId } from '../api/hindsight.js';
import type { Slice } from './appState.js';

// The history store of the current project: what it holds, and re-hashing it all (Verify).

export interface StatsSlice {
  stats: StoreStats | null;
  statsError: HindsightErrorData | null;
  /** Each remote's state for the project (no request to the remote); null until read. */
  remotes: RemoteStatus[] | null;
  verifyOperation: string | null;
  verifyProgress: Progress | null;
  verifyResult: VerifyResult | null;
  verifyError: HindsightErrorData | null;
  loadStats(): Promise<void>;
  resetStats(): void;
  /** Re-hashes every blob; with repair, damaged ones are written again from the folder's files. */
  runVerify(repair?: boolean): Promise<void>;
  verifyProgressed(operationId: string, progress: Progress): void;
  /** The remote a pull is running from, and the last pull's answer or failure. */
  pullRemote: string | null;
  pullResult: PullResult | null;
  pullError: HindsightErrorData | null;
  /** Brings other machines' new snapshots in from one remote (the folder is not changed). */
  runPull(remote: string): Promise<void>;
}

export const createStatsSlice: Slice<StatsSlice> = (set, get) => ({
  stats: null,
  statsError: null,
  remotes: null,
  verifyOperation: null,
  verifyProgress: null,
  verifyResult: null,
  verifyError: null,
  pullRemote: null,
  pullResult: null,
  pullError: null,

  loadStats: async () => {
    const projectId = get().currentProjectId;
    if (!projectId) return;
    try {
      const [stats, remotes] = await Promise.all([call('storeStats', { projectId, largest: 10 }), call('remoteStatus', { projectId })]);
      if (get().currentProjectId === projectId) set({ stats, remotes, statsError: null });
    } catch (error) {
      set({ statsError: asError(error).toJSON() });
    }
  },

  resetStats: () =>
    set({
      stats: null,
      remotes: null,
      statsError: null,
      verifyOperation: null,
      verifyProgress: null,
      verifyResult: null,
      verifyError: null,
      pullRemote: null,
      pullResult: null,
      pullError: null,
    }),

  runPull: async (remote) => {
    const projectId = get().currentProjectId;
    if (!projectId || get().pullRemote) return;
    set({ pullRemote: remote, pullResult: null, pullError: null });
    try {
      const pullResult = await call('pull', { projectId, remote, operationId: newOperationId('pull') });
      if (get().currentProjectId === projectId) set({ pullResult, pullRemote: null });
      // The imported snapshots reach the timeline through their snapshot events; the counts here.
      await get().loadStats();
    } catch (error) {
      if (get().currentProjectId === projectId) set({ pullError: asError(error).toJSON(), pullRemote: null });
    }
  },

  runVerify: async (repair = false) => {
    const projectId = get().currentProjectId;
    if (!projectId || get().verifyOperation) return;
    const operationId = newOperationId('verify');
    set({ verifyOperation: operationId, verifyProgress: null, verifyResult: null, verifyError: null });
    try {
      const verifyResult = await call('verify', { projectId, operationId, repair });
      if (get().verifyOperation === operationId) set({ verifyResult, verifyOperation: null });
    } catch (error) {
      if (get().verifyOperation === operationId) set({ verifyError: asError(error).toJSON(), verifyOperation: null });
    }
  },

  verifyProgressed: (operationId, progress) => {
    if (get().verifyOperation === operationId) set({ verifyProgress: progress });
  },
});
