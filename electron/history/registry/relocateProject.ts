import { existsSync, renameSync } from 'node:fs';
import { HindsightError } from '../../../shared/errors.js';
import type { ConfigStore } from '../config/configStore.js';
import { moveProject } from '../config/projectEdits.js';
import { fsError } from '../fsErrors.js';
import { projectStoreDir } from '../store/storeLayout.js';
import { currentIdentity, sameIdentity } from '../project/folderIdentity.js';
import { projectIdOf } from '../project/projectId.js';

// "Locate…": a known project's folder found at a new place takes its history with it. Only the
// very folder that was recorded (same device, inode and birth time: a rename or a move within one
// disk) is accepted, so no other folder is ever mixed into a history; a copy is opened as a new
// project instead. The store folder is renamed to the new path's projectId and config.json's entry
// follows it (name, pin and added time kept).

/** Moves a project's history to the folder at `root` (a real path); answers the new projectId. */
export async function relocateProject(config: ConfigStore, dataDir: string, projectId: string, root: string): Promise<string> {
  const known = config.requireConfig().projects.find((p) => p.id === projectId);
  if (!known) throw new HindsightError('NOT_FOUND', `No project with id ${projectId} is known.`, { projectId });
  const newId = projectIdOf(root);
  if (newId === projectId) return projectId; // back where it was
  const identity = currentIdentity(root);
  if (!known.identity || !identity || !sameIdentity(known.identity, identity)) {
    throw new HindsightError(
      'FOLDER_REPLACED',
      `${root} is not the folder that was at ${known.root} (another folder, or a copy of it). Open it as a new project instead; the old history stays as it is.`,
      { root, projectId },
    );
  }
  const to = projectStoreDir(dataDir, newId);
  if (config.requireConfig().projects.some((p) => p.id === newId) || existsSync(to)) {
    throw new HindsightError('BAD_REQUEST', `${root} already has a history of its own; remove it from the list first to move this one there.`, {
      root,
      projectId,
    });
  }
  const from = projectStoreDir(dataDir, projectId);
  try {
    if (existsSync(from)) renameSync(from, to);
  } catch (error) {
    throw fsError('move the history store to', to, error);
  }
  await config.editConfig(moveProject(projectId, newId, root));
  return newId;
}
