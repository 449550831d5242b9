import type { ProjectStore } from '../project/projectStore.js';

// A history keeps the id it was first recorded under, wherever it is attached later: a bundle
// imported --as another folder lives in that folder's store (its projectId) but is still the same
// history. The id is the store's own projectId unless an import recorded another one in meta.

const KEY = 'historyId';

export function historyIdOf(store: ProjectStore): string {
  return store.index.getMeta(KEY) ?? store.projectId;
}

export function setHistoryId(store: ProjectStore, id: string): void {
  if (id !== store.projectId) store.index.setMeta(KEY, id);
}
