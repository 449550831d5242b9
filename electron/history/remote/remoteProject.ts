import type { ProjectStore } from '../project/projectStore.js';

// Which project and line a history is on a remote. A history started here is known on the remote
// by its own projectId and starts its line from nothing; a clone keeps the id it was cloned from
// and the snapshot its line forks from (meta keys written by the clone), so every machine pushes
// the same project to the same folder.

const PROJECT_KEY = 'remote.projectId';
const FORK_KEY = 'remote.fork';

export function remoteProjectId(store: ProjectStore): string {
  return store.index.getMeta(PROJECT_KEY) ?? store.projectId;
}

export function remoteFork(store: ProjectStore): { machine: string; origin: number } | null {
  const raw = store.index.getMeta(FORK_KEY);
  return raw ? (JSON.parse(raw) as { machine: string; origin: number }) : null;
}

export function setRemoteOrigin(store: ProjectStore, projectId: string, fork: { machine: string; origin: number } | null): void {
  store.index.setMeta(PROJECT_KEY, projectId);
  if (fork) store.index.setMeta(FORK_KEY, JSON.stringify(fork));
}
