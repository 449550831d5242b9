import { noteCleanClose } from '../db/checkedStamp.js';
import type { OpenProject } from '../registry/openProject.js';

// A command asked the recorder of its data folder for the history as the folder is
// (recorder/recorderEndpoint.ts): the project's watcher writes its open group now. The index is then
// as this process's SQLite left it, so it is noted as a clean close notes it, and the command's
// open that follows skips its read of every page (db/checkedStamp.ts): only SQLite wrote the
// file since this process opened it.

export type HeardWritten = 'written' | 'rescanning' | 'failed' | 'unwatched';

/** 'unwatched' when the project has no watcher in this process. */
export async function writeHeard(project: OpenProject | undefined): Promise<HeardWritten> {
  const written = (await project?.watcher?.writeHeard()) ?? 'unwatched';
  if (written === 'written' && project?.store.index.open) noteCleanClose(project.store.index.file);
  return written;
}
