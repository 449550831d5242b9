import { projectStoreDir } from '../store/storeLayout.js';
import { projectFolder } from '../project/projectFolder.js';
import { projectIdOf } from '../project/projectId.js';
import type { ProjectRegistry } from './projectRegistry.js';
import { bringBackIndex, type IndexSwap } from './repairIndex.js';

/**
 * The first step of repairing a project: its store closed in this process when it is open, then
 * its index brought back from its backup when it cannot be read (repairIndex.ts). The caller
 * opens the project again (a rescan records what changed since) and re-checks its blobs.
 */
export async function repairOpenIndex(dataDir: string, projects: ProjectRegistry, folder: string): Promise<IndexSwap & { root: string }> {
  const root = projectFolder(folder, dataDir);
  const projectId = projectIdOf(root);
  if (projects.find(projectId)) await projects.close(projectId);
  return { root, ...(await bringBackIndex(projectStoreDir(dataDir, projectId), root)) };
}
