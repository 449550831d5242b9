import { setImmediate as nextTurn } from 'node:timers/promises';
import { PROJECT_STATES, type ProjectState } from './configSchema.js';
import type { ConfigStore } from './configStore.js';
import { setLastSeen } from './projectEdits.js';
import { observeProject } from './projectState.js';

// At startup, a look at every known project's folder: each one whose state changed since it was
// last seen (present, moved, gone) is recorded by its own edit, while the app keeps reading the
// config on every turn (this is the load the snapshot cache is built for).

export interface SweepResult {
  checked: number;
  /** Projects whose state changed, one edit each. */
  changed: number;
  states: Record<ProjectState, number>;
}

/** Projects observed between two yields of the event loop, so readers never wait long. */
const SLICE = 256;

export async function sweepProjects(store: ConfigStore, options: { signal?: AbortSignal } = {}): Promise<SweepResult> {
  // A corrupt or unreadable config is not swept: requireConfig throws its error.
  const { projects } = store.requireConfig();
  const states = Object.fromEntries(PROJECT_STATES.map((s) => [s, 0])) as Record<ProjectState, number>;
  let changed = 0;
  for (const [index, project] of projects.entries()) {
    options.signal?.throwIfAborted();
    const state = observeProject(project);
    states[state]++;
    if (state !== project.lastSeen) {
      await store.editConfig(setLastSeen(project.id, state));
      changed++;
    } else if (index % SLICE === SLICE - 1) {
      await nextTurn();
    }
  }
  return { checked: projects.length, changed, states };
}
