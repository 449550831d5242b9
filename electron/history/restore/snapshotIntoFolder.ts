import { basename, dirname, join, resolve } from 'node:path';
import type { MaterializeResult } from '../../../shared/contract.js';
import { HindsightError } from '../../../shared/errors.js';
import type { ProgressSink } from '../progressThrottle.js';
import type { BytesOnDemand } from '../project/bytesOnDemand.js';
import { requireSnapshot } from '../db/requireSnapshot.js';
import { realpathOrSelf } from '../project/dataDirPlace.js';
import type { ProjectStore } from '../project/projectStore.js';
import { backgroundCloseWanted, type BackgroundCloseSetting } from './backgroundCloser.js';
import { localBlobSource, materializeSnapshot, type BlobSource } from './materializeSnapshot.js';
import { assertNoNameCollisions } from './nameCollisions.js';
import { assertOutsideProject } from './outsideProject.js';
import { isInside } from '../paths/safeTarget.js';
import { SpecialModes } from './specialModes.js';
import { withoutUnwritable } from './windowsSkips.js';

// A snapshot of a project's history written into a new or empty folder of its own
// (materializeSnapshot.ts): never inside the data folder or the project, with the snapshot's files,
// empty folders and recorded folder modes, setuid/setgid/sticky bits from another history dropped
// unless kept. The project and its history are not touched.

export interface SnapshotIntoFolderOptions {
  dataDir: string;
  /** Where the bytes come from (default: the project's store, fetching what only a remote holds first). */
  source?: BlobSource;
  bytesOnDemand: BytesOnDemand;
  /** The backgroundClose setting for this run; HINDSIGHT_BACKGROUND_CLOSE still wins over it. */
  backgroundClose: BackgroundCloseSetting;
  keepSpecialModes?: boolean;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
}

export async function snapshotIntoFolder(
  store: ProjectStore,
  snapshotId: number,
  into: string,
  options: SnapshotIntoFolderOptions,
): Promise<MaterializeResult> {
  const started = performance.now();
  requireSnapshot(store.index, snapshotId);
  const target = resolve(into);
  refuseDataDir(options.dataDir, target);
  assertOutsideProject(store.root, target);
  const modes = new SpecialModes(store.index, options.keepSpecialModes === true);
  const { kept: files, skipped } = withoutUnwritable(modes.files(store.index.files.filesAt(snapshotId), snapshotId), target);
  assertNoNameCollisions(
    files.map((f) => f.path),
    target,
    snapshotId,
  );
  // A clone's older snapshot: its bytes may still be only on the remote.
  if (!options.source)
    await options.bytesOnDemand(
      store,
      files.map((f) => f.hash),
      options.signal,
    );
  const contents = {
    projectId: store.projectId,
    snapshotId,
    files,
    folderModeOf: (path: string) => modes.folderMode(snapshotId, path),
    emptyFolders: store.index.files.emptyFoldersAt(snapshotId, files),
  };
  const written = await materializeSnapshot(contents, target, options.source ?? localBlobSource(store.blobs), {
    background: backgroundCloseWanted(process.env, process.platform, options.backgroundClose),
    signal: options.signal,
    onProgress: options.onProgress,
  });
  const said = skipped.length > 0 ? { skipped } : {};
  return { projectId: store.projectId, snapshotId, ...written, specialModesDropped: modes.dropped, ...said, ms: Math.round(performance.now() - started) };
}

/** The folder (which may not exist yet: its parent's real path) must lie outside the data folder. */
function refuseDataDir(dataDir: string, target: string): void {
  if (isInside(realpathOrSelf(dataDir), join(realpathOrSelf(dirname(target)), basename(target)))) {
    throw new HindsightError('FOLDER_IN_DATA_DIR', `${target} is inside Hindsight's data folder; choose a folder outside it.`, { into: target });
  }
}
