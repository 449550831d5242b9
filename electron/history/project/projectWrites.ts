import type { ProjectStore } from './projectStore.js';
import type { WriterWait } from './writerLock.js';

// What work below the registry needs of an open project (registry/openProject.ts): its store, and
// its writes run one at a time under the writer lock. Declared here so compact/ takes an open
// project without importing the registry above it.

export interface ProjectWrites {
  readonly store: ProjectStore;
  /** Runs `work` after every earlier write to the project, holding the store's writer lock. */
  serial<T>(work: () => Promise<T>, wait?: WriterWait): Promise<T>;
  /** While a write is queued or running: what to wait for; else undefined. */
  writing(): Promise<unknown> | undefined;
}
