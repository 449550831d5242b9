import { BackgroundCompaction } from '../compact/backgroundCompaction.js';
import { SearchBuilder } from '../search/searchBuilder.js';
import { sharedCopyPool } from '../store/copyPool.js';
import type { OpenProject } from './openProject.js';

// What a process that records does in the background for a project: the search index build, kept
// current from then on, and (setting compactInBackground) the compaction of its raw blobs. Both
// yield to every write of the project and to every copy of the process, and stop when it closes.

export interface BackgroundSettings {
  searchMaxFileSize: () => number;
  compactInBackground: boolean;
}

export function startBackgroundWork(project: OpenProject, settings: BackgroundSettings): void {
  project.searchBuilder ??= new SearchBuilder(project.store, { maxSize: settings.searchMaxFileSize, busy: () => yieldTo(project) });
  project.searchBuilder.poke();
  if (!settings.compactInBackground) return;
  project.compaction ??= new BackgroundCompaction(project, { busy: () => yieldTo(project) });
  project.compaction.start();
}

/** What background work waits for before its next batch: the project's write, else a copy under way (looked at again soon). */
function yieldTo(project: OpenProject): Promise<unknown> | undefined {
  return project.writing() ?? (sharedCopyPool().slots.busy > 0 ? new Promise((resolve) => setTimeout(resolve, 50)) : undefined);
}
