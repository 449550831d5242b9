import type { ConfigStore } from '../config/configStore.js';
import { projectFolder } from '../project/projectFolder.js';
import type { ProjectRegistry } from './projectRegistry.js';
import { relocateProject } from './relocateProject.js';

/**
 * Locate… for a project this process may have open: it is closed, its history moves to the folder
 * when it is the very folder recorded (relocateProject.ts), and the old id is forgotten when the
 * move gave it a new one. Answers the folder's real path, for the caller to open.
 */
export async function relocateRegistered(
  context: { dataDir: string; config: ConfigStore; projects: ProjectRegistry },
  projectId: string,
  folder: string,
): Promise<string> {
  const root = projectFolder(folder, context.dataDir);
  await context.projects.close(projectId);
  if ((await relocateProject(context.config, context.dataDir, projectId, root)) !== projectId) context.projects.forget(projectId);
  return root;
}
