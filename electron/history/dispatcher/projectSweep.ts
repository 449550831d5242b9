import type { HindsightEvent } from '../../../shared/contract.js';
import { sweepProjects } from '../config/startupSweep.js';
import type { HistoryEngine } from '../historyEngine.js';
import { errorData } from './errorData.js';

// At startup: the config's look at every known folder (present, moved, gone), and a projectState
// event for each one that changed, so a window already showing the list updates it.

export async function sweepAndReport(engine: HistoryEngine, emit: (event: HindsightEvent) => void, signal?: AbortSignal): Promise<void> {
  const before = new Map(engine.config.loadConfig().config.projects.map((p) => [p.id, p.lastSeen]));
  try {
    await sweepProjects(engine.config, { signal });
  } catch (error) {
    // A corrupt config is not swept; getConfig reports it to the viewer.
    if (!signal?.aborted) emit({ event: 'error', payload: { projectId: null, error: errorData(error) } });
    return;
  }
  for (const project of engine.config.loadConfig().config.projects) {
    if (before.get(project.id) !== project.lastSeen) {
      emit({ event: 'projectState', payload: { projectId: project.id, root: project.root, state: project.lastSeen, detail: null } });
    }
  }
}
