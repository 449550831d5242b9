import type { NewOrigin } from '../db/commitSnapshot.js';
import type { ProjectStore } from '../project/projectStore.js';

// Work that must happen right before a change group is written, e.g. a checkpoint when git's HEAD
// moved (issue 8). A hook sees the store and the changed paths; whatever it commits lands before
// the change snapshot. A hook that throws stops the group: its changes stay on disk and are
// recorded by the next rescan, so nothing is lost. A hook that knows what caused the group (git
// rewrote the files) says so, and the group's snapshot carries that origin and label.

export interface GroupCause {
  origin: NewOrigin;
  label: string;
}

export type BeforeCommitHook = (store: ProjectStore, paths: readonly string[]) => void | GroupCause | undefined | Promise<void | GroupCause | undefined>;

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

  /** Runs every hook; answers with the first cause one of them named. */
  async run(store: ProjectStore, paths: readonly string[]): Promise<GroupCause | undefined> {
    let cause: GroupCause | undefined;
    for (const hook of [...this.hooks]) cause = cause ?? (await hook(store, paths)) ?? undefined;
    return cause;
  }
}
