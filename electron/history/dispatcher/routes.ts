import type { CallName, DeletedFile, DiffInputs, FileBytes, HindsightEvent, ParsedRequestOf, ResponseOf } from '../../../shared/contract.js';
import { isHindsightError } from '../../../shared/errors.js';
import type { Progress } from '../../../shared/progress.js';
import type { HistoryEngine } from '../historyEngine.js';
import type { ProjectStore } from '../project/projectStore.js';
import { storeStats } from '../stats/storeStats.js';
import { readDiskHead } from '../versions/readDiskHead.js';
import { sweepAndReport } from './projectSweep.js';
import { readVersionHead } from '../versions/readVersionHead.js';
import { configEdit, configView } from './configPatch.js';
import { errorData } from './errorData.js';
import { fileBytes } from './fileBytes.js';
import type { Operations } from './operations.js';
import type { ProjectDirectory } from './projectDirectory.js';

// What each contract call does: a validated request in, the engine called, the answer out in the
// contract's shape. Routes are thin: the work lives in the engine and the modules it uses.

export interface RouteContext {
  engine: HistoryEngine;
  projects: ProjectDirectory;
  operations: Operations;
  emit: (event: HindsightEvent) => void;
  /** Record changes live in every opened project (the app and the browser host do; tests may not). */
  watch: boolean;
}

export type Route<N extends CallName> = (request: ParsedRequestOf<N>, ctx: RouteContext) => Promise<ResponseOf<N>> | ResponseOf<N>;
export type Routes = { [N in CallName]?: Route<N> };

export const ROUTES: Routes = {
  openProject: ({ path, operationId, confirmLarge }, ctx) =>
    ctx.operations.run(operationId, async (signal) => {
      // By time, not id: the engine registers the folder in config.json before it opens any store.
      const startedAt = Date.now();
      let result;
      try {
        result = await ctx.engine.open(path, { signal, onProgress: progressTo(ctx, operationId), confirmLarge });
      } catch (error) {
        reportFolderState(ctx, path, error);
        throw error;
      }
      const project = ctx.projects.remember(result.projectId, result.root);
      const store = ctx.engine.history(result.root);
      for (const snapshot of store.index.snapshots()) {
        if (snapshot.at >= startedAt) ctx.emit({ event: 'snapshot', payload: { projectId: store.projectId, snapshot } });
      }
      if (ctx.watch) await startWatching(ctx, store);
      return { ...result, project: ctx.projects.summary(project.projectId) };
    }),
  closeProject: async ({ projectId }, ctx) => {
    if (ctx.projects.isOpen(projectId)) await ctx.engine.unwatch(root(ctx, projectId));
    ctx.projects.markClosed(projectId);
    return null;
  },
  listProjects: async (_request, ctx) => {
    // Look again before answering: a folder deleted or moved since startup is listed as it is now.
    await sweepAndReport(ctx.engine, ctx.emit);
    return ctx.projects.summaries();
  },

  log: ({ projectId }, ctx) => ctx.engine.log(root(ctx, projectId)),
  fileTree: ({ projectId, snapshotId }, ctx) => ctx.engine.files(root(ctx, projectId), snapshotId),
  versions: ({ projectId, path }, ctx) => ctx.engine.versions(root(ctx, projectId), path),
  readVersion: ({ projectId, path, versionId, maxBytes }, ctx) => versionBytes(history(ctx, projectId), path, versionId, maxBytes),
  diffInputs: ({ projectId, path, before, after, maxBytes }, ctx): DiffInputs => {
    const store = history(ctx, projectId);
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
  gitVersions: ({ projectId, path }, ctx) => ctx.engine.gitVersions(root(ctx, projectId), path),

  restoreFile: ({ projectId, path, versionId }, ctx) =>
    announcing(ctx, history(ctx, projectId), async () => {
      const result = await ctx.engine.restoreFile(root(ctx, projectId), path, versionId);
      return { ...result, capturedSnapshotId: result.capturedSnapshotId ?? null };
    }),
  previewRestore: async ({ projectId, snapshotId, pathPrefix, deleteAdded }, ctx) => {
    const preview = await ctx.engine.previewRestore(root(ctx, projectId), snapshotId, { prefix: pathPrefix, deleteAdded });
    return { snapshotId, pathPrefix, deleteAdded, write: preview.write, recreate: preview.recreate, added: preview.added, unchanged: preview.unchanged };
  },
  restoreSnapshot: ({ projectId, snapshotId, pathPrefix, deleteAdded, dryRun, operationId }, ctx) =>
    ctx.operations.run(operationId, async (signal) => {
      const folder = root(ctx, projectId);
      if (dryRun) {
        const preview = await ROUTES.previewRestore!({ projectId, snapshotId, pathPrefix, deleteAdded }, ctx);
        const counts = { written: preview.write.length, recreated: preview.recreate.length, unchanged: preview.unchanged };
        const added = preview.added.length;
        return { dryRun, preview, snapshotId: null, undoSnapshotId: null, ...counts, deleted: deleteAdded ? added : 0, kept: deleteAdded ? 0 : added };
      }
      return announcing(ctx, history(ctx, projectId), async () => {
        const r = await ctx.engine.restoreSnapshot(folder, snapshotId, { prefix: pathPrefix, deleteAdded, signal, onProgress: progressTo(ctx, operationId) });
        return {
          dryRun,
          preview: null,
          snapshotId: r.snapshotId ?? null,
          undoSnapshotId: r.undoSnapshotId ?? null,
          written: r.written,
          recreated: r.recreated,
          deleted: r.deleted,
          unchanged: r.unchanged,
          kept: r.kept,
        };
      });
    }),
  rescan: ({ projectId, operationId }, ctx) =>
    ctx.operations.run(operationId, (signal) =>
      announcing(ctx, history(ctx, projectId), async () => {
        const r = await ctx.engine.rescan(root(ctx, projectId), { signal, onProgress: progressTo(ctx, operationId) });
        return { projectId, snapshotId: r.snapshotId ?? null, checkpointId: r.checkpointId ?? null, changed: r.changed.length, paths: r.paths, hashed: r.hashed };
      }),
    ),

  createCheckpoint: ({ projectId, label }, ctx) =>
    announcing(ctx, history(ctx, projectId), async () => {
      const id = await ctx.engine.checkpoint(root(ctx, projectId), label);
      return history(ctx, projectId).index.snapshot(id)!;
    }),
  deletedFiles: ({ projectId }, ctx): DeletedFile[] => {
    const store = history(ctx, projectId);
    return ctx.engine.deleted(store.root).map((d) => ({
      path: d.path,
      deletion: store.index.version(d.versionId)!,
      lastContents: d.lastVersionId === null ? null : (store.index.version(d.lastVersionId) ?? null),
    }));
  },
  storeStats: ({ projectId, largest }, ctx) => storeStats(history(ctx, projectId), largest),
  verify: ({ projectId, operationId }, ctx) =>
    ctx.operations.run(operationId, (signal) => ctx.engine.verify(root(ctx, projectId), progressTo(ctx, operationId), signal)),

  getConfig: (_request, ctx) => configView(ctx.engine.config.loadConfig(), ctx.projects),
  editConfig: async (request, ctx) => {
    await ctx.engine.config.editConfig(configEdit(request));
    for (const change of request.projects ?? []) if (change.forget) ctx.projects.forget(change.projectId);
    return configView(ctx.engine.config.loadConfig(), ctx.projects);
  },

  cancel: ({ operationId }, ctx) => ({ cancelled: ctx.operations.cancel(operationId) }),
};

function root(ctx: RouteContext, projectId: string): string {
  return ctx.projects.rootOf(projectId);
}

function history(ctx: RouteContext, projectId: string): ProjectStore {
  return ctx.engine.history(root(ctx, projectId));
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

/** Runs work that may write snapshots, then announces every snapshot it wrote. */
async function announcing<T>(ctx: RouteContext, store: ProjectStore, work: () => Promise<T>): Promise<T> {
  const before = store.index.latestSnapshotId() ?? 0;
  try {
    return await work();
  } finally {
    announceSince(ctx, store, before);
  }
}

function announceSince(ctx: RouteContext, store: ProjectStore, afterId: number): void {
  for (const snapshot of store.index.snapshots()) {
    if (snapshot.snapshotId > afterId) ctx.emit({ event: 'snapshot', payload: { projectId: store.projectId, snapshot } });
  }
}

/** Live recording; a watcher that cannot start is reported, the open itself still succeeded. */
async function startWatching(ctx: RouteContext, store: ProjectStore): Promise<void> {
  let last = store.index.latestSnapshotId() ?? 0;
  const report = (error: unknown) => ctx.emit({ event: 'error', payload: { projectId: store.projectId, error: errorData(error) } });
  try {
    await ctx.engine.watch(store.root, {
      quietMs: ctx.engine.config.loadConfig().config.settings.quietWindowMs,
      onGroup: () => {
        announceSince(ctx, store, last);
        last = store.index.latestSnapshotId() ?? last;
      },
      onError: report,
    });
  } catch (error) {
    report(error);
  }
}

/** A folder that vanished or was replaced tells the viewer, besides failing the call. */
function reportFolderState(ctx: RouteContext, path: string, error: unknown): void {
  if (!isHindsightError(error)) return;
  const state = error.code === 'FOLDER_REPLACED' ? 'replaced' : error.code === 'FOLDER_VANISHED' ? 'gone' : error.code.startsWith('CONFIG_') ? 'config-corrupt' : null;
  const known = ctx.projects.summaries().find((p) => p.root === path || p.root === error.details?.root);
  if (state && known) ctx.emit({ event: 'projectState', payload: { projectId: known.projectId, root: known.root, state, detail: error.message } });
}
