import { HindsightError } from '../../../../shared/errors.js';
import type { RemoteConfig } from '../../config/configSchema.js';
import { projectFolder } from '../../project/projectFolder.js';
import type { ProvisionalProject } from '../../registry/provisionalProject.js';
import { isProjectId } from '../../remoteLayout/remoteKeys.js';
import { emptyCloneFolder, prepareCloneFolder } from './cloneFolder.js';
import { cloneProject, type CloneOptions, type CloneResult } from './cloneProject.js';

// A clone as one step of the project list: the folder made (or checked empty), the project
// registered, the history taken as its writer, then opened once so the stat cache holds the files
// just written (its first rescan records nothing). A clone that fails takes it all back: the
// registration, the store with the blobs fetched so far when the clone made it, and the folder
// left as empty as it was found.

export interface CloneRequest {
  remote?: string;
  projectId: string;
  into: string;
  snapshot?: string;
}

export interface CloneContext {
  dataDir: string;
  /** Registers a folder for a write that may fail (registry/provisionalProject.ts). */
  register: (root: string) => Promise<ProvisionalProject>;
  /** Opens the cloned folder (the engine's open: a rescan against the files just written). */
  open: (root: string) => Promise<unknown>;
}

export async function cloneInto(context: CloneContext, remote: RemoteConfig, request: CloneRequest, options: CloneOptions): Promise<CloneResult> {
  requireProjectId(request.projectId);
  const made = prepareCloneFolder(request.into);
  let registered: ProvisionalProject | undefined;
  try {
    const root = projectFolder(request.into, context.dataDir);
    registered = await context.register(root);
    const { store } = registered.project;
    const clone = () => cloneProject(context.dataDir, store, remote, request.projectId, { ...options, snapshot: request.snapshot });
    const result = await store.writer.hold(clone, { signal: options.signal });
    await context.open(root);
    return result;
  } catch (error) {
    await registered?.undo();
    emptyCloneFolder(request.into, made);
    throw error;
  }
}

function requireProjectId(projectId: string): void {
  if (!isProjectId(projectId)) {
    throw new HindsightError('REMOTE_PROJECT_NOT_FOUND', `"${projectId}" is not a project id (32 hex digits, as \`hindsight push --json\` prints it).`, {
      projectId,
    });
  }
}
