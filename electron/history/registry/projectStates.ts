import type { EngineEvent, ProjectState, ProjectSummary } from '../../../shared/contract.js';
import { isHindsightError } from '../../../shared/errors.js';
import { errorData } from '../errorData.js';
import { sweepProjects } from '../config/startupSweep.js';
import type { ConfigStore } from '../config/configStore.js';
import { setLastSeen } from '../config/projectEdits.js';

// Where a project's folder stands, announced as projectState events: after a look at every known
// folder (present, moved, gone), and when an open finds its folder vanished or replaced, or the
// config it must register in is corrupt.

type Emit = (event: EngineEvent) => void;

/** Looks at every known project's folder; a projectState event for each one whose state changed. */
export async function sweepAndReport(config: ConfigStore, emit: Emit, signal?: AbortSignal): Promise<void> {
  const before = new Map(config.loadConfig().config.projects.map((p) => [p.id, p.lastSeen]));
  try {
    await sweepProjects(config, { signal });
  } catch (error) {
    // A corrupt config is not swept; getConfig reports it to the viewer.
    if (!signal?.aborted) emit({ event: 'error', payload: { projectId: null, error: errorData(error) } });
    return;
  }
  for (const project of config.loadConfig().config.projects) {
    if (before.get(project.id) !== project.lastSeen) {
      emit({ event: 'projectState', payload: { projectId: project.id, root: project.root, state: project.lastSeen, detail: null } });
    }
  }
}

/**
 * An open that failed because of its folder or its config tells the viewer, besides failing. A
 * known folder found missing is recorded as gone too, so the list read next says so (a later look
 * finds it present again when it comes back).
 */
export async function reportOpenFailure(config: ConfigStore, known: readonly ProjectSummary[], folder: string, error: unknown, emit: Emit): Promise<void> {
  if (!isHindsightError(error)) return;
  const state: ProjectState | null =
    error.code === 'FOLDER_REPLACED'
      ? 'replaced'
      : error.code === 'FOLDER_VANISHED' || error.code === 'FOLDER_NOT_FOUND'
        ? 'gone'
        : error.code.startsWith('CONFIG_')
          ? 'config-corrupt'
          : null;
  const project = known.find((p) => p.root === folder || p.root === error.details?.root);
  if (!state || !project) return;
  if (state === 'gone') await config.editConfig(setLastSeen(project.projectId, 'gone')).catch(() => undefined);
  emit({ event: 'projectState', payload: { projectId: project.projectId, root: project.root, state, detail: error.message } });
}
