import type { ProjectStore } from '../project/projectStore.js';

// Work that must happen right before a change group is written, e.g. a checkpoint when git's HEAD
// moved (issue 8). A hook sees the store and the changed paths; whatever it commits lands before
// the change snapshot. A hook that throws stops the group: its changes stay on disk and are
// recorded by the next rescan, so nothing is lost.

export type BeforeCommitHook = (store: ProjectStore, paths: readonly string[]) => void | Promise<void>;

export class CommitHooks {
  private readonly hooks: BeforeCommitHook[] = [];

  /** Adds a hook; returns the function that removes it. */
  add(hook: BeforeCommitHook): () => void {
    this.hooks.push(hook);
    return () => {
      const at = this.hooks.indexOf(hook);
      if (at >= 0) this.hooks.splice(at, 1);
    };
  }

  async run(store: ProjectStore, paths: readonly string[]): Promise<void> {
    for (const hook of [...this.hooks]) await hook(store, paths);
  }
}
