import { existsSync } from 'node:fs';
import type { ConfigStore } from '../config/configStore.js';
import { projectStoreDir } from '../store/storeLayout.js';
import { currentIdentity, sameIdentity } from '../project/folderIdentity.js';
import { projectIdOf } from '../project/projectId.js';
import { relocateProject } from './relocateProject.js';

// A project is known by its folder's spelling on disk (paths/diskSpelling.ts). A Hindsight that
// took the path as typed registered `~/RD` for the folder the disk spells `~/rd`: opened now under
// its disk spelling, that history is the folder's own, so it moves to the folder's projectId (the
// store renamed, config.json's entry moved: registry/relocateProject.ts) instead of a second history
// starting beside it. Only the very folder recorded (device, inode, birth time) is taken, and only
// while the disk spelling has no history of its own.

/** Moves a twin's history to `root` when `root` has none; answers what was done, for the user. */
export async function adoptTwinHistory(config: ConfigStore, dataDir: string, root: string): Promise<string | undefined> {
  const id = projectIdOf(root);
  const projects = config.loadConfig().config.projects;
  if (projects.some((p) => p.id === id) || existsSync(projectStoreDir(dataDir, id))) return undefined;
  const identity = currentIdentity(root);
  if (!identity) return undefined;
  const twin = projects.find((p) => p.root !== root && p.identity !== undefined && sameIdentity(p.identity, identity));
  if (!twin) return undefined;
  await relocateProject(config, dataDir, twin.id, root);
  return `The history recorded for ${twin.root} is the history of ${root} (one folder, spelled two ways): it goes on there.`;
}
