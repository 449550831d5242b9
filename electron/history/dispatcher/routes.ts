import type { CallName, ParsedRequestOf, ResponseOf } from '../../../shared/contract.js';
import type { HistoryEngine } from '../historyEngine.js';
import type { Operations } from './operations.js';
import { environmentOnly } from './environmentOnly.js';
import type { RecordingSwitch } from '../recorder/recordingSwitch.js';
import { HindsightError } from '../../../shared/errors.js';

// What each contract call does: a validated request in, one engine method called, its answer out
// unchanged (the engine speaks the contract's types). The table is total: a call added to
// shared/contract.ts without its route here does not compile.

export interface RouteContext {
  engine: HistoryEngine;
  operations: Operations;
  /** Record changes live in every opened project (the app and the browser host do; tests may not). */
  watch: boolean;
  /** Where remote credentials come from: the app's keychain (handed over by useRemoteCredentials) or the process's environment only. */
  credentials: CredentialsSource;
  /** Aborts when the caller went away (Dispatcher.handle). */
  gone: AbortSignal;
  /** The background recorder of every known project, where this process runs one (the app, the browser host). */
  recording: RecordingSwitch | null;
}

function recorderOf(ctx: RouteContext): RecordingSwitch {
  if (ctx.recording) return ctx.recording;
  throw new HindsightError(
    'NOT_RECORDING',
    'This process records no project in the background: only the app and `hindsight serve` or `hindsight watch --all` do.',
  );
}

export type CredentialsSource = 'keychain' | 'environment';

export type Route<N extends CallName> = (request: ParsedRequestOf<N>, ctx: RouteContext) => Promise<ResponseOf<N>> | ResponseOf<N>;
export type Routes = { [N in CallName]: Route<N> };

export const ROUTES: Routes = {
  openProject: ({ path, operationId, confirmLarge }, { engine, operations, watch }) =>
    operations.run(operationId, (signal) => engine.open(path, { operationId, signal, watch, confirmLarge })),
  relocateProject: ({ projectId, path, operationId }, { engine, operations, watch }) =>
    operations.run(operationId, (signal) => engine.relocate(projectId, path, { operationId, signal, watch })),
  closeProject: async ({ projectId }, { engine }) => {
    await engine.closeProject(projectId);
    return null;
  },
  // Look again before answering: a folder deleted or moved since startup is listed as it is now.
  listProjects: (_request, { engine }) => engine.listProjects({ check: true }),

  log: ({ projectId }, { engine }) => engine.log(projectId),
  snapshotChanges: ({ projectId, snapshotId }, { engine }) => engine.snapshotChanges(projectId, snapshotId),
  snapshotSummary: ({ projectId, snapshotId }, { engine }) => engine.snapshotSummary(projectId, snapshotId),
  fileTree: ({ projectId, snapshotId, folder }, { engine }) =>
    folder === undefined ? engine.files(projectId, snapshotId) : engine.folderLevel(projectId, folder, snapshotId),
  versions: ({ projectId, path, limit, before }, { engine }) => engine.versions(projectId, path, { limit, before }),
  diskState: ({ projectId, path }, { engine }) => engine.diskState(projectId, path),
  lineHistory: ({ projectId, path, from, to, versionId }, { engine }) => engine.lineHistory(projectId, path, { from, to }, versionId),
  readVersion: ({ projectId, path, versionId, maxBytes }, { engine }) => engine.readVersion(projectId, path, { versionId, maxBytes }),
  diffInputs: ({ projectId, path, before, after, maxBytes }, { engine }) => engine.diffInputs(projectId, path, before, after, maxBytes),
  gitVersions: ({ projectId, path }, { engine }) => engine.gitVersions(projectId, path),

  restoreFile: ({ projectId, path, versionId, keepSpecialModes }, { engine }) => engine.restoreFile(projectId, path, versionId, { keepSpecialModes }),
  restoreFromGit: ({ projectId, path, source }, { engine }) => engine.restoreFromGit(projectId, path, source),
  restoreHunk: ({ projectId, path, versionId, hunk, diskHash }, { engine }) => engine.restoreHunk(projectId, path, versionId, hunk, diskHash),
  previewRestore: ({ projectId, snapshotId, pathPrefix, deleteAdded, keepSpecialModes }, { engine }) =>
    engine.previewRestore(projectId, snapshotId, { prefix: pathPrefix, deleteAdded, keepSpecialModes }),
  restoreSnapshot: ({ projectId, snapshotId, pathPrefix, deleteAdded, keepSpecialModes, dryRun, operationId }, { engine, operations }) =>
    operations.run(operationId, (signal) =>
      engine.restoreSnapshot(projectId, snapshotId, { prefix: pathPrefix, deleteAdded, keepSpecialModes, dryRun, operationId, signal }),
    ),
  undoRestore: ({ projectId, snapshotId, dryRun, operationId }, { engine, operations }) =>
    operations.run(operationId, (signal) => engine.undoRestore(projectId, snapshotId, { dryRun, operationId, signal })),
  materializeSnapshot: ({ projectId, snapshotId, into, operationId, keepSpecialModes }, { engine, operations }) =>
    operations.run(operationId, (signal) => engine.materializeSnapshot(projectId, snapshotId, into, { operationId, signal, keepSpecialModes })),
  exportHistory: ({ projectId, to, since, operationId, skipDamaged }, { engine, operations }) =>
    operations.run(operationId, (signal) => engine.exportHistory(projectId, { file: to }, { since, operationId, signal, skipDamaged })),
  importHistory: ({ from, as, operationId }, { engine, operations }) =>
    operations.run(operationId, (signal) => engine.importHistory({ file: from }, { as, operationId, signal })),
  rescan: ({ projectId, operationId }, { engine, operations }) => operations.run(operationId, (signal) => engine.rescan(projectId, { operationId, signal })),

  createCheckpoint: ({ projectId, label }, { engine }) => engine.checkpoint(projectId, label),
  deletedFiles: ({ projectId }, { engine }) => engine.deleted(projectId),
  // A search nobody waits for any more ends: its caller went away or cancelled it.
  search: ({ projectId, operationId, ...query }, { engine, operations, gone }) =>
    operations.run(operationId, (signal) => engine.search(projectId, query, { signal: AbortSignal.any([signal, gone]) })),
  storeStats: ({ projectId, largest }, { engine }) => engine.storeStats(projectId, largest),
  changeDensity: ({ projectId, path, utcOffsetMinutes }, { engine }) => engine.changeDensity(projectId, path, utcOffsetMinutes),
  storeGrowth: ({ projectId, utcOffsetMinutes }, { engine }) => engine.storeGrowth(projectId, utcOffsetMinutes),
  pins: ({ projectId }, { engine }) => engine.pins(projectId),
  setPin: (request, { engine }) =>
    engine.setPin(request.projectId, 'snapshotId' in request ? { snapshotId: request.snapshotId } : { versionId: request.versionId }, request.pinned),
  prune: ({ projectId, dryRun }, { engine }) => engine.prune(projectId, { dryRun }),
  retentionStatus: ({ projectId, holders }, { engine }) => engine.retentionStatus(projectId, holders),
  remoteStatus: ({ projectId }, { engine }) => engine.remoteStatus(projectId),
  pull: ({ projectId, remote, operationId }, { engine, operations }) =>
    operations.run(operationId, (signal) => engine.pull(projectId, remote, { operationId, signal })),
  verify: ({ projectId, operationId, repair, checkRemote }, { engine, operations }) =>
    operations.run(operationId, (signal) => engine.verify(projectId, { operationId, signal, repair, checkRemote })),

  useRemoteCredentials: ({ remote, credentials }, { engine, credentials: source }) => {
    if (source === 'environment') throw environmentOnly();
    return engine.useRemoteCredentials(remote, credentials);
  },
  dataFolder: (_request, { engine }) => ({ path: engine.dataDir }),

  getConfig: (_request, { engine }) => engine.configView(),
  editConfig: (request, { engine }) => engine.editConfig(request),

  recordingStatus: (_request, ctx) => recorderOf(ctx).status(),
  pauseRecording: ({ forMs }, ctx) => recorderOf(ctx).pause(forMs),
  resumeRecording: (_request, ctx) => recorderOf(ctx).resume(),
  cancel: ({ operationId }, { operations }) => ({ cancelled: operations.cancel(operationId) }),
};
