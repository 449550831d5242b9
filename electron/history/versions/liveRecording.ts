import type { OpenProject } from '../registry/openProject.js';
import { startBackgroundWork } from '../registry/backgroundWork.js';
import { watchLimitError } from '../watch/watchLimit.js';
import type { WriterWait } from '../project/writerLock.js';
import type { ProjectRecorder, WatchOptions } from './projectRecorder.js';
import type { RescanOptions } from './rescan.js';
import type { RescanResult } from '../../../shared/contract.js';
import { rescanResult } from './restoreOperations.js';

// A project recorded live: its watcher, and what a process that records does in the background for
// it (registry/backgroundWork.ts). A watch the OS refuses for its limit gives way to a rescan every
// fallbackRescanSeconds; a caller that does not handle that refusal itself is told of it as of any
// failure (WATCH_LIMIT, with the fix).

export interface LiveSettings {
  quietWindowMs: number;
  fallbackRescanSeconds: number;
  searchMaxFileSize: number;
  compactInBackground: boolean;
}

export class LiveRecording {
  constructor(
    private readonly recorder: ProjectRecorder,
    private readonly settings: () => LiveSettings,
  ) {}

  /** Records changes live until the project's watcher stops (unwatch, closeProject). */
  async watch(project: OpenProject, options: WatchOptions): Promise<void> {
    await this.watchWithFallback(project, options);
    this.startBackgroundWork(project);
  }

  /**
   * A catch-up rescan with the watch placed as its walk goes (ProjectRecorder.catchUpAndWatch), then
   * the project recorded live. Its background work waits for `startBackgroundWork`: a recorder
   * starts it once every project's catch-up is done, so none of it delays the others.
   */
  async catchUpAndWatch(project: OpenProject, options: RescanOptions & WriterWait, watch: WatchOptions): Promise<RescanResult> {
    return rescanResult(project.projectId, await this.recorder.catchUpAndWatch(project, options, this.withFallback(project, watch)));
  }

  /** The recording of a project just opened to record: a watcher that cannot start is reported, and the open still succeeded. */
  async start(project: OpenProject, report: (error: unknown) => void): Promise<void> {
    await this.watchWithFallback(project, { quietMs: this.settings().quietWindowMs, onError: report }).catch(report);
    this.startBackgroundWork(project);
  }

  private async watchWithFallback(project: OpenProject, options: WatchOptions): Promise<void> {
    await this.recorder.watch(project, this.withFallback(project, options));
  }

  private withFallback(project: OpenProject, options: WatchOptions): WatchOptions {
    const fallbackRescanMs = options.fallbackRescanMs ?? this.settings().fallbackRescanSeconds * 1000;
    const onWatchLimit = options.onWatchLimit ?? ((error: unknown) => options.onError?.(watchLimitError(project.root, error, fallbackRescanMs / 1000)));
    return { ...options, fallbackRescanMs, onWatchLimit };
  }

  startBackgroundWork(project: OpenProject): void {
    const { compactInBackground } = this.settings();
    startBackgroundWork(project, { searchMaxFileSize: () => this.settings().searchMaxFileSize, compactInBackground });
  }
}
