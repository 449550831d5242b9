import type { CallName, DiffInputs, FileBytes, HindsightEvent, ParsedRequestOf, ResponseOf } from '../../../shared/contract.js';
import type { Progress } from '../../../shared/progress.js';
import type { HistoryEngine } from '../historyEngine.js';
import type { ProjectStore } from '../project/projectStore.js';
import { storeStats } from '../stats/storeStats.js';
import { readDiskHead } from '../versions/readDiskHead.js';
import { readVersionHead } from '../versions/readVersionHead.js';
import { fileBytes } from './fileBytes.js';
import type { Operations } from './operations.js';
import type { ProjectDirectory } from './projectDirectory.js';

// What each contract call does: a validated request in, the engine called, the answer out.
// Routes are thin: the work lives in the engine and the modules it uses.

export interface RouteContext {
  engine: HistoryEngine;
  projects: ProjectDirectory;
  operations: Operations;
  emit: (event: HindsightEvent) => void;
}

export type Route<N extends CallName> = (request: ParsedRequestOf<N>, ctx: RouteContext) => Promise<ResponseOf<N>> | ResponseOf<N>;
export type Routes = { [N in CallName]?: Route<N> };

export const ROUTES: Routes = {
  openProject: ({ path, operationId }, ctx) =>
    ctx.operations.run(operationId, async (signal) => {
      const result = await ctx.engine.open(path, { signal, onProgress: progressTo(ctx, operationId) });
      const project = ctx.projects.remember(result.projectId, result.root);
      if (result.firstCopy) announceLatest(ctx, ctx.engine.history(result.root));
      return { ...result, project };
    }),
  closeProject: ({ projectId }, ctx) => {
    ctx.projects.markClosed(projectId);
    return null;
  },
  listProjects: (_request, ctx) => ctx.projects.summaries(),

  log: ({ projectId }, ctx) => ctx.engine.log(root(ctx, projectId)),
  fileTree: ({ projectId, snapshotId }, ctx) => ctx.engine.files(root(ctx, projectId), snapshotId),
  versions: ({ projectId, path }, ctx) => ctx.engine.versions(root(ctx, projectId), path),
  readVersion: ({ projectId, path, versionId, maxBytes }, ctx) => {
    const store = ctx.engine.history(root(ctx, projectId));
    return versionBytes(store, path, versionId, maxBytes);
  },
  diffInputs: ({ projectId, path, before, after, maxBytes }, ctx): DiffInputs => {
    const store = ctx.engine.history(root(ctx, projectId));
    const side = (s: typeof before): FileBytes | null => {
      if (s.kind === 'disk') {
        const head = readDiskHead(store.root, path, maxBytes);
        return head ? fileBytes({ path, versionId: null, ...head }, maxBytes) : null;
      }
      // A deletion has no contents: that side of the diff is absent, not an error.
      const version = store.index.version(s.versionId);
      if (version && version.path === path && version.hash === null) return null;
      return versionBytes(store, path, s.versionId, maxBytes);
    };
    return { path, before: side(before), after: side(after) };
  },

  restoreFile: async ({ projectId, path, versionId }, ctx) => {
    const folder = root(ctx, projectId);
    const result = await ctx.engine.restoreFile(folder, path, versionId);
    const store = ctx.engine.history(folder);
    if (result.capturedSnapshotId !== undefined) announce(ctx, store, result.capturedSnapshotId);
    announce(ctx, store, result.snapshotId);
    return { ...result, capturedSnapshotId: result.capturedSnapshotId ?? null };
  },

  storeStats: ({ projectId, largest }, ctx) => storeStats(ctx.engine.history(root(ctx, projectId)), largest),
  verify: ({ projectId, operationId }, ctx) =>
    ctx.operations.run(operationId, () => ctx.engine.verify(root(ctx, projectId), progressTo(ctx, operationId))),

  cancel: ({ operationId }, ctx) => ({ cancelled: ctx.operations.cancel(operationId) }),
};

function root(ctx: RouteContext, projectId: string): string {
  return ctx.projects.rootOf(projectId);
}

function versionBytes(store: ProjectStore, path: string, versionId: number | undefined, maxBytes: number): FileBytes {
  // The size comes from the index, so only the head is read and `truncated` is still exact.
  const { version, bytes } = readVersionHead(store, path, versionId, maxBytes);
  const type = version.type === 'symlink' ? 'symlink' : 'file';
  const size = type === 'symlink' ? bytes.length : version.size;
  return fileBytes({ path, versionId: version.versionId, type, mode: version.mode, size, bytes }, maxBytes);
}

function progressTo(ctx: RouteContext, operationId: string | undefined): (progress: Progress) => void {
  return (progress) => ctx.emit({ event: 'progress', payload: { ...progress, operationId: operationId ?? null } });
}

function announce(ctx: RouteContext, store: ProjectStore, snapshotId: number): void {
  const snapshot = store.index.snapshot(snapshotId);
  if (snapshot) ctx.emit({ event: 'snapshot', payload: { projectId: store.projectId, snapshot } });
}

function announceLatest(ctx: RouteContext, store: ProjectStore): void {
  const latest = store.index.latestSnapshotId();
  if (latest !== undefined) announce(ctx, store, latest);
}
