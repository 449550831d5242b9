import { existsSync, rmSync } from 'node:fs';
import type { ConfigStore } from '../config/configStore.js';
import { forgetProject, registerProject } from '../config/projectEdits.js';
import { projectStoreDir } from '../store/storeLayout.js';
import type { OpenProject } from './openProject.js';
import { projectIdOf } from '../project/projectId.js';
import type { ProjectRegistry } from './projectRegistry.js';

// A project registered for a write that may fail (an import, a clone): when it fails, what the
// write made is taken back. The entry of config.json goes when this registered it, and the
// history store goes when this made it (its blobs with it), so a refused import or a clone cut
// off leaves the project list and the data folder as they were. A store that was there before
// is kept: the write's own rollback leaves it as it was.

export interface ProvisionalProject {
  project: OpenProject;
  /** Takes back what the registration made; the error it answers is the write's, not its own. */
  undo(): Promise<void>;
}

export async function registerProvisionally(config: ConfigStore, projects: ProjectRegistry, dataDir: string, root: string): Promise<ProvisionalProject> {
  const projectId = projectIdOf(root);
  const registeredBefore = config.loadConfig().config.projects.some((p) => p.id === projectId);
  const storeDir = projectStoreDir(dataDir, projectId);
  const storeBefore = existsSync(storeDir);
  await config.editConfig(registerProject(root));
  const undo = async () => {
    if (!registeredBefore) {
      await config.editConfig(forgetProject(projectId)).catch(() => undefined);
      projects.forget(projectId);
    }
    // A store that was there before stays as it is, open or not.
    if (storeBefore) return;
    await projects.close(projectId).catch(() => undefined);
    try {
      rmSync(storeDir, { recursive: true, force: true });
    } catch {
      // The write's own error is the one to report; a store left here names no project and is
      // taken again (or reused) by the next open of that folder.
    }
  };
  try {
    return { project: projects.get(projects.locate(root)), undo };
  } catch (error) {
    await undo();
    throw error;
  }
}
