import type { RecordingStatus } from '../../../shared/recording.js';
import { errorData } from '../errorData.js';
import type { HistoryEngine } from '../historyEngine.js';
import { clearPause, readPause, writePause } from './pauseMark.js';
import { RecordAll } from './recordAll.js';
import type { CatchUpAfter } from './catchUp.js';
import type { FlushAnswer } from '../recorderProtocol.js';

// Recording of every known project, with the user's pause: a pause writes every open change
// group and stops every watcher (the recorder stops), for a while or until resumed; a resume
// starts a fresh recorder, whose catch-up records what changed meanwhile. A pause or a stop
// cuts a catch-up short at once (the next start finds those changes again); a new recorder starts
// only after the old one has stopped, so two never watch one project. Each change is announced
// as a `recording` event, so the tray and every window say the same.

export interface RecordingSwitchOptions {
  /** Makes the recorder of a start or a resume (`after` names why nothing recorded before it). */
  makeRecorder?: (after: CatchUpAfter) => RecordAll;
  /** A recorder that cannot start (config.json unreadable); by default an error event. */
  onError?: (error: unknown) => void;
  /** The data folder whose pause this switch keeps and honours (pauseMark.ts): a start while it is in force stays paused. */
  pauseMark?: string;
}

export class RecordingSwitch {
  private recorder: RecordAll | null = null;
  private running: Promise<void> = Promise.resolve();
  private ending: Promise<void> = Promise.resolve();
  private paused = false;
  private stopped = false;
  private resumesAt: number | null = null;
  private resumeTimer: NodeJS.Timeout | undefined;
  private readonly makeRecorder: (after: CatchUpAfter) => RecordAll;
  private started = false;
  private readonly onError: (error: unknown) => void;
  private readonly pauseMark: string | undefined;

  constructor(
    private readonly engine: HistoryEngine,
    options: RecordingSwitchOptions = {},
  ) {
    this.makeRecorder = options.makeRecorder ?? ((catchUpAfter) => new RecordAll(engine, { catchUpAfter }));
    this.onError = options.onError ?? ((error) => engine.events.emit({ event: 'error', payload: { projectId: null, error: errorData(error) } }));
    this.pauseMark = options.pauseMark;
  }

  /** Starts recording (unless a pause kept for the data folder is in force); resolves once every present project is caught up and watched. */
  start(): Promise<RecordingStatus> {
    const kept = this.pauseMark === undefined ? null : readPause(this.pauseMark);
    if (kept !== null) return this.pause(kept.resumesAt === null ? null : kept.resumesAt - Date.now());
    return this.resume();
  }

  status(): RecordingStatus {
    const recording = !this.paused && !this.stopped;
    return { recording, resumesAt: recording ? null : this.resumesAt, projects: this.recorder?.watching().length ?? 0 };
  }

  /** A command's question to the recorder (RecordAll.flushFor); a paused switch watches nothing. */
  flushFor(projectId: string): Promise<FlushAnswer> {
    if (this.paused || this.stopped || this.recorder === null) return Promise.resolve({ watching: false, reason: 'recording is paused' });
    return this.recorder.flushFor(projectId);
  }

  /** Pauses for forMs (null: until resumed); pausing again sets a new end. */
  async pause(forMs: number | null): Promise<RecordingStatus> {
    clearTimeout(this.resumeTimer);
    this.paused = true;
    this.resumesAt = forMs === null ? null : Date.now() + forMs;
    if (forMs !== null) this.resumeTimer = setTimeout(() => void this.resume(), forMs).unref();
    if (this.pauseMark !== undefined) writePause(this.pauseMark, this.resumesAt);
    await this.end();
    return this.announce();
  }

  async resume(): Promise<RecordingStatus> {
    clearTimeout(this.resumeTimer);
    this.paused = false;
    this.resumesAt = null;
    if (this.pauseMark !== undefined) clearPause(this.pauseMark);
    await this.ending;
    if (!this.paused && !this.stopped && this.recorder === null) {
      // The first recorder catches up a time nothing ran; every later one, a pause.
      const recorder = this.makeRecorder(this.started ? 'paused' : 'not-running');
      this.started = true;
      this.recorder = recorder;
      this.running = recorder.start().catch(this.onError);
    }
    await this.running;
    return this.announce();
  }

  /** Writes every open group and stops recording for good (the process is ending). */
  async stop(): Promise<void> {
    clearTimeout(this.resumeTimer);
    this.stopped = true;
    await this.end();
  }

  private end(): Promise<void> {
    const recorder = this.recorder;
    this.recorder = null;
    const before = this.ending;
    const running = this.running;
    this.ending = (async () => {
      await before;
      if (recorder === null) return;
      await recorder.stop();
      await running;
    })();
    return this.ending;
  }

  private announce(): RecordingStatus {
    const status = this.status();
    this.engine.events.emit({ event: 'recording', payload: status });
    return status;
  }
}
