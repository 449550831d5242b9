import { isHindsightError } from '../../../shared/errors.js';
import { errorData } from '../errorData.js';
import type { KnownProject } from '../config/configSchema.js';
import type { DeepReadonly } from '../config/deepFreeze.js';
import { observeProject } from '../config/projectState.js';
import type { HistoryEngine } from '../historyEngine.js';
import type { WatchOptions } from '../versions/projectRecorder.js';
import type { ChangeGroupResult } from '../versions/changeGroup.js';
import { basename, dirname } from 'node:path';
import { catchUpTitle, lastSeenAt, markRunning, markWatched, type CatchUpAfter } from './catchUp.js';
import { watchLimitError } from '../watch/watchLimit.js';
import { IdleCollector } from './idleCollector.js';
import { ListWatch } from '../watch/listWatch.js';
import { RunningMark, runningBeatMs, type RunningBeat } from './runningMark.js';
import { count } from '../trace.js';
import type { FlushAnswer } from '../recorderProtocol.js';

// One recorder for every known project of a data folder: from its start it catches up and
// watches each project of config.json whose folder is present. It looks again at config.json (a
// stat while the file is unchanged: the config store keeps its snapshot) and at the folders of
// known projects when the OS says one of them changed (listWatch.ts), so a project added by
// another process (an open, an import, a clone) is picked up, one forgotten or whose folder went
// away (deleted, unmounted, moved) stops being watched, and one whose folder is back is caught up
// and watched again. A slow safety look finds what no event told. Idle, it wakes for that look
// and for the data folder's running mark (runningMark.ts), and writes into no history.
//
// The recorder writes only through the engine, whose writes hold the project's writer lock each
// for its own length: another process (a CLI restore, prune, import) writes between them.

/** How often the recorder looks without being told: what events can miss (a grandparent renamed, a network file system). */
export const SAFETY_LOOK_MS = 60_000;
/** The same while some folder could not be watched: its changes are found by looks alone. */
export const UNWATCHED_LOOK_MS = 10_000;

export interface RecordedProject {
  projectId: string;
  root: string;
}

/**
 * recording: caught up and watched (`back` when its folder returned, `rescanning` when the OS
 * refused the watch); gone / moved: its folder is not there (or another one is), so it is not
 * watched; forgotten: removed from the list; uncopied: listed, but its first copy has not finished
 * (it is under way elsewhere, or was cancelled: only an open copies it); failed: it could not be
 * caught up or watched (the detail says why).
 */
export type RecordingState = 'recording' | 'back' | 'rescanning' | 'gone' | 'moved' | 'forgotten' | 'uncopied' | 'failed';

export interface RecordingReport extends RecordedProject {
  state: RecordingState;
  detail: string | null;
}

export type RecordedGroup = ChangeGroupResult & { reconciled: boolean; label: string | null };

export interface RecordAllOptions extends Pick<WatchOptions, 'quietMs' | 'maxGroupMs' | 'reconcileEveryMs'> {
  /** How often the recorder looks without an event (SAFETY_LOOK_MS). */
  lookMs?: number;
  /** How often the data folder's running mark is renewed (runningMark.ts). */
  beatMs?: number;
  /** Told of every change group recorded (a catch-up too, with its label). */
  onGroup?: (project: RecordedProject, group: RecordedGroup) => void;
  /** Told when a project's state changes (its first one included). */
  onState?: (report: RecordingReport) => void;
  /** A failure outside any state change (a group that could not be written). */
  onError?: (project: RecordedProject, error: unknown) => void;
  /** Why nothing recorded before this recorder: the catch-up snapshots' titles say it. */
  catchUpAfter?: CatchUpAfter;
  /** How long the recorder is idle (after its start, after a group) before it collects its garbage (idleCollector.ts). */
  idleCollectMs?: number;
}

interface Tracked extends RecordedProject {
  /** 'new' until its first state is known. */
  state: RecordingState | 'new';
  /** Its store's folder, watched while its first copy is not done. */
  storeDir?: string;
  /** Set while its catch-up and watch are being started. */
  starting?: Promise<void>;
  /** A look came while it was starting: it is looked at again once the start is done. */
  lookAfterStart?: boolean;
}

export class RecordAll {
  private readonly tracked = new Map<string, Tracked>();
  private readonly stopping = new AbortController();
  private lookTimer: NodeJS.Timeout | undefined;
  private beatTimer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  /** An event came during a look: another one follows it. */
  private lookAgain = false;
  private readonly collector: IdleCollector;
  private readonly list: ListWatch;
  private readonly mark: RunningMark;
  /** The last run's running mark, read at the start: the span of the start's catch-ups. */
  private lastBeat: RunningBeat | undefined;
  /** The known folders at the last look at config.json. */
  private roots: string[] = [];
  /** Set once the start's catch-ups are done: a project caught up later starts its background work at once. */
  private caughtUpAll = false;
  /** The sweeps its reports started, until each ends: a stop waits for them (a process ends once stopped). */
  private readonly sweeps = new Set<Promise<void>>();

  constructor(
    private readonly engine: HistoryEngine,
    private readonly options: RecordAllOptions = {},
  ) {
    this.collector = new IdleCollector(options.idleCollectMs);
    const configPath = engine.config.path;
    this.list = new ListWatch(dirname(configPath), basename(configPath), () => void this.poll());
    this.mark = new RunningMark(engine.dataDir);
  }

  /** Catches up and watches every present project; resolves once each one is watched (or reported). */
  async start(): Promise<void> {
    const startedAt = Date.now();
    // A config that cannot be read stops here with its own clear error.
    const { projects } = this.engine.config.requireConfig();
    this.lastBeat = RunningMark.read(this.engine.dataDir);
    this.mark.begin();
    // Placed before the catch-ups: a change to the list during them is heard.
    this.follow(projects.map((p) => p.root));
    for (const project of projects) await this.look(project, startedAt);
    await this.settled();
    if (this.stopping.signal.aborted) return;
    // Background work (search index builds) waits for every catch-up: it delays none of them.
    this.caughtUpAll = true;
    for (const t of this.tracked.values()) if (watched(t)) this.engine.startBackgroundWork(t.projectId);
    this.scheduleLook();
    this.beatTimer = setInterval(() => {
      count('idle.wakeups');
      this.mark.beat();
    }, this.options.beatMs ?? runningBeatMs());
    this.beatTimer.unref();
    this.collector.worked();
  }

  /** Writes every open group, stops every watcher and marks each project as seen until now. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.collector.stop();
    this.list.close();
    clearTimeout(this.lookTimer);
    clearInterval(this.beatTimer);
    await this.polling;
    await this.settled();
    await Promise.all([...this.tracked.values()].filter(watched).map((t) => this.unwatch(t)));
    // A sweep writes config.json: one still under way when the process ends leaves its edit undone.
    await Promise.all(this.sweeps);
    // Each project watched says when it stopped: the run's mark is no longer needed.
    this.mark.end();
  }

  /** The projects watched now. */
  watching(): RecordedProject[] {
    return [...this.tracked.values()].filter(watched).map(named);
  }

  /**
   * A command's question (recorderEndpoint.ts): every event heard for the project up to now is
   * written, and the answer says from when history.db holds the folder as it is; or that the
   * command must look at the folder itself (not watched here, still starting, rescanned instead).
   */
  async flushFor(projectId: string): Promise<FlushAnswer> {
    const t = this.tracked.get(projectId);
    if (t === undefined || this.stopping.signal.aborted) return { watching: false, reason: 'not recorded by this recorder' };
    if (t.starting) return { watching: false, reason: 'being caught up' };
    if (!watched(t)) return { watching: false, reason: t.state };
    const askedAt = Date.now();
    const written = await this.engine.writeHeard(projectId);
    if (written === 'written') return { writtenThrough: askedAt, watching: true };
    if (written === 'unwatched') return { watching: false, reason: 'not watched' };
    return { watching: true, rescanning: true, reason: written === 'rescanning' ? 'the OS refused its watch' : 'a change group could not be written' };
  }

  /** Resolves once every catch-up and watch started so far is in place (or reported). */
  async settled(): Promise<void> {
    await Promise.all([...this.tracked.values()].map((t) => t.starting));
  }

  /** One look at config.json and the known folders; one at a time, and one more after it when asked during it. */
  poll(): Promise<void> {
    if (this.polling) {
      this.lookAgain = true;
      return this.polling;
    }
    this.polling = (async () => {
      do {
        this.lookAgain = false;
        await this.lookAtAll();
      } while (this.lookAgain && !this.stopping.signal.aborted);
    })().finally(() => (this.polling = undefined));
    return this.polling;
  }

  /** The next safety look: sooner while some folder is not watched. */
  private scheduleLook(): void {
    if (this.stopping.signal.aborted) return;
    const ms = this.list.missing ? UNWATCHED_LOOK_MS : (this.options.lookMs ?? SAFETY_LOOK_MS);
    // Keeps the process alive, as a watch does.
    this.lookTimer = setTimeout(() => {
      count('idle.wakeups');
      count('recorder.safetyLooks');
      void this.poll().finally(() => this.scheduleLook());
    }, ms);
  }

  private async lookAtAll(): Promise<void> {
    count('recorder.looks');
    const read = this.engine.config.loadConfig();
    // A config being repaired by hand: everything stays as it is until it reads again.
    if (read.error) return;
    const known = read.config.projects;
    // The watches follow the list, and a folder that went away or came back (its parent may have too).
    this.follow(known.map((p) => p.root));
    const ids = new Set(known.map((p) => p.id));
    for (const t of [...this.tracked.values()]) {
      if (ids.has(t.projectId)) continue;
      if (t.starting) {
        t.lookAfterStart = true;
        continue;
      }
      this.tracked.delete(t.projectId);
      try {
        // Its open group is written, and its store closed: nothing of it is kept open here.
        await this.engine.closeProject(t.projectId);
        this.report(t, 'forgotten');
      } catch (error) {
        // Off the list all the same: said with its name, and the look goes on with the others.
        this.report(t, 'failed', error);
      }
    }
    for (const project of known) if (!this.stopping.signal.aborted) await this.look(project);
  }

  /**
   * Stops or leaves one project after a look at its folder, or starts its catch-up and watch without
   * waiting for them (a long first copy never holds up the looks at the others).
   */
  private async look(project: DeepReadonly<KnownProject>, catchUpUntil?: number): Promise<void> {
    const t = this.tracked.get(project.id) ?? { projectId: project.id, root: project.root, state: 'new' };
    this.tracked.set(project.id, t);
    // What the look was told (its folder moved again, say) is looked at once the start is done.
    if (t.starting) {
      t.lookAfterStart = true;
      return;
    }
    const state = observeProject(project);
    if (state !== 'present') {
      if (watched(t)) {
        try {
          await this.unwatch(t);
        } catch (error) {
          // Said with the project's name, then where its folder is, and the look goes on with the
          // others: a look is never a rejection nobody handles.
          this.report(t, 'failed', error);
        }
      }
      if (t.state !== state) this.report(t, state);
      return;
    }
    // A project that failed to open is tried again only after its folder went away and came back.
    if (watched(t) || t.state === 'failed') return;
    const returning = t.state === 'gone' || t.state === 'moved';
    t.starting = this.begin(t, returning, catchUpUntil).finally(() => {
      t.starting = undefined;
      // A catch-up walks the whole folder, even when it finds nothing changed.
      this.collector.worked();
      if (t.lookAfterStart) {
        t.lookAfterStart = false;
        void this.poll();
      }
    });
  }

  /** A project's catch-up (a rescan), then its watch. */
  private async begin(t: Tracked, returning: boolean, catchUpUntil: number | undefined): Promise<void> {
    const { engine } = this;
    const { signal } = this.stopping;
    let refused: unknown;
    try {
      const store = engine.store(t.projectId);
      // A first copy is the user's to start (and to confirm when large), never the recorder's.
      if (store.index.snapshotReads.baselineId() === undefined) {
        if (t.state !== 'uncopied') this.report(t, 'uncopied');
        t.storeDir = store.storeDir;
        this.follow(this.roots);
        // Copied between the look and the watch of its store: looked at again now.
        if (store.index.snapshotReads.baselineId() !== undefined) void this.poll();
        return;
      }
      t.storeDir = undefined;
      const since = lastSeenAt(store, this.lastBeat);
      const label = catchUpUntil === undefined ? undefined : catchUpTitle(since, catchUpUntil, this.options.catchUpAfter);
      // The watch is placed as the catch-up's walk lists each folder: no second pass over the files.
      const caught = await engine.catchUpAndWatch(
        t.projectId,
        { signal, label },
        {
          quietMs: this.options.quietMs ?? engine.configView().settings.quietWindowMs,
          maxGroupMs: this.options.maxGroupMs,
          reconcileEveryMs: this.options.reconcileEveryMs,
          onGroup: (group) => {
            this.collector.worked();
            if (group.snapshotId !== undefined) this.options.onGroup?.(named(t), { ...group, label: null });
          },
          onError: (error) => this.failedGroup(t, error),
          onWatchLimit: (error) => (refused = error),
        },
      );
      if (caught.snapshotId !== null) this.caughtUp(t, caught.snapshotId, caught.checkpointId);
      if (signal.aborted) {
        // Stopped while it caught up: the watch placed meanwhile goes too (its group written).
        await engine.unwatch(t.projectId);
        return;
      }
      markWatched(engine.store(t.projectId), this.mark.run);
      if (this.caughtUpAll) engine.startBackgroundWork(t.projectId);
    } catch (error) {
      // Its folder moved during the catch-up: not a failure of the project. Its state stays as it
      // was, and the look the move asks for says whether it is gone, or back and started again.
      if (!signal.aborted && !folderMoved(error)) this.report(t, 'failed', error);
      return;
    }
    if (refused !== undefined) {
      const everySeconds = engine.configView().settings.fallbackRescanSeconds;
      this.report(t, 'rescanning', watchLimitError(t.root, refused, everySeconds));
    } else {
      this.report(t, returning ? 'back' : 'recording');
    }
  }

  /** The watches that tell the recorder to look again: the list, the known folders, the stores of projects not copied yet. */
  private follow(roots: string[]): void {
    this.roots = roots;
    const stores = [...this.tracked.values()].flatMap((t) => (t.state === 'uncopied' && t.storeDir !== undefined ? [t.storeDir] : []));
    this.list.follow(roots, stores);
  }

  private caughtUp(t: Tracked, snapshotId: number, checkpointId: number | null): void {
    const changed = this.engine.snapshotChanges(t.projectId, snapshotId).map((c) => c.path);
    const label = this.engine.store(t.projectId).index.snapshotReads.snapshot(snapshotId)?.label ?? null;
    this.collector.worked();
    this.options.onGroup?.(named(t), { snapshotId, checkpointId: checkpointId ?? undefined, changed, reconciled: true, label });
  }

  /** A group that failed because the folder went away: the next look says so, once. */
  private failedGroup(t: Tracked, error: unknown): void {
    if (folderMoved(error)) {
      void this.poll();
      return;
    }
    this.options.onError?.(named(t), error);
  }

  private async unwatch(t: Tracked): Promise<void> {
    await this.engine.unwatch(t.projectId);
    markRunning(this.engine.store(t.projectId));
  }

  /**
   * Tells the caller, and the engine's listeners (the viewer): a folder gone, moved or back is
   * looked at by a sweep, which records its state in config.json and announces it; a watch refused
   * or an open that failed is an error event.
   */
  private report(t: Tracked, state: RecordingState, problem?: unknown): void {
    t.state = state;
    const detail = problem === undefined ? null : messageOf(problem);
    this.options.onState?.({ projectId: t.projectId, root: t.root, state, detail });
    if (state === 'gone' || state === 'moved' || state === 'back') {
      const sweep: Promise<void> = this.engine.sweepProjects(this.stopping.signal).finally(() => this.sweeps.delete(sweep));
      this.sweeps.add(sweep);
    }
    if (problem !== undefined) this.engine.events.emit({ event: 'error', payload: { projectId: t.projectId, error: errorData(problem) } });
  }
}

function named(t: Tracked): RecordedProject {
  return { projectId: t.projectId, root: t.root };
}

function watched(t: Tracked): boolean {
  return t.state === 'recording' || t.state === 'back' || t.state === 'rescanning';
}

/** The folder was not there (or not the same folder) when the engine looked: a move, heard by a look. */
function folderMoved(error: unknown): boolean {
  return isHindsightError(error) && (error.code === 'FOLDER_VANISHED' || error.code === 'FOLDER_REPLACED' || error.code === 'FOLDER_NOT_FOUND');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
