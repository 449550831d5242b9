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
  /** How long the project's writes must have stopped before an index build starts (default INDEX_AFTER_QUIET_MS). */
  indexAfterQuietMs?: number;
}

/**
 * How long a project's writes must have stopped before its search index build starts: a storm (a
 * checkout) is recorded first, with no index thread (an isolate, its SQLite connection, the pages
 * it reads) beside it, and the build then reads what the last of its groups wrote, once.
 */
export const INDEX_AFTER_QUIET_MS = 10_000;

export function startBackgroundWork(project: OpenProject, settings: BackgroundSettings): void {
  project.searchBuilder ??= new SearchBuilder(project.store, {
    maxSize: settings.searchMaxFileSize,
    busy: () => yieldTo(project),
    notYet: () => untilQuiet(project, settings.indexAfterQuietMs ?? INDEX_AFTER_QUIET_MS),
  });
  project.searchBuilder.poke();
  if (!settings.compactInBackground) return;
  project.compaction ??= new BackgroundCompaction(project, { busy: () => yieldTo(project) });
  project.compaction.start();
}

/** While the project writes, or has changes heard and not written, or wrote within `quietMs`: what to wait for; else undefined. */
function untilQuiet(project: OpenProject, quietMs: number): Promise<unknown> | undefined {
  const writing = project.writing();
  if (writing) return writing;
  const left = project.lastWriteEndedAt + quietMs - performance.now();
  if (project.watcher?.pending !== true && left <= 0) return undefined;
  return new Promise((resolve) => setTimeout(resolve, Math.max(left, 250)).unref());
}

/** What background work waits for before its next batch: the project's write, else a copy under way (looked at again soon). */
function yieldTo(project: OpenProject): Promise<unknown> | undefined {
  return project.writing() ?? (sharedCopyPool().slots.busy > 0 ? new Promise((resolve) => setTimeout(resolve, 50)) : undefined);
}
