import { count } from '../trace.js';

// Groups the paths the watcher reports into change groups: a group closes once nothing happened
// for the quiet window, or when it has been open for the longest a group may last, so a file still
// being written is captured once it settles and a busy folder still gets a snapshot now and then.
// "Doubt" (a watcher error, a folder created or removed, an ignore file edited) rides along with
// the group and makes its commit a full reconciling rescan instead of a look at the paths alone.
//
// A storm of events (a checkout rewriting 20,000 files) costs no more than the group needs: the
// quiet timer is armed once per quiet stretch, not once per event (an event only notes its time),
// and past `maxPaths` the group keeps no paths at all: it is a doubt, recorded by the rescan an
// open does (a walk compared with the stat cache, the changed files hashed on the copy workers),
// so the group's memory stops growing whatever the number of events.

export interface BatchTiming {
  quietMs: number;
  maxGroupMs: number;
  /** The most paths a group holds before it becomes a rescan (default MAX_GROUP_PATHS). */
  maxPaths?: number;
}

export const DEFAULT_TIMING: BatchTiming = { quietMs: 2000, maxGroupMs: 30_000 };

/** Past this many paths, a rescan (one walk, the stat cache) costs less than a look at each path. */
export const MAX_GROUP_PATHS = 2000;

export const MANY_CHANGES = 'many files changed';

export interface ChangeGroupRequest {
  paths: string[];
  doubt: string[];
}

export class ChangeBatcher {
  private paths = new Set<string>();
  private doubt: string[] = [];
  private quietTimer: NodeJS.Timeout | undefined;
  private maxTimer: NodeJS.Timeout | undefined;
  /** When the last event came (Date.now()): a quiet timer that finds a later one waits the rest. */
  private lastEventAt = 0;

  constructor(
    private readonly timing: BatchTiming,
    private readonly emit: (group: ChangeGroupRequest) => void,
  ) {}

  add(path: string): void {
    if (!this.rescanDue) {
      this.paths.add(path);
      if (this.paths.size > (this.timing.maxPaths ?? MAX_GROUP_PATHS)) {
        // The rescan finds every one of them again: holding them would only cost memory.
        this.paths.clear();
        this.doubt.push(MANY_CHANGES);
      }
    }
    this.touch();
  }

  markDoubt(reason: string): void {
    if (!this.doubt.includes(reason)) this.doubt.push(reason);
    this.touch();
  }

  /** Whether the open group is already a whole rescan (past its most paths). */
  get rescanDue(): boolean {
    return this.doubt.includes(MANY_CHANGES);
  }

  /** An event that names no path for the group: the group stays open while they come. */
  heard(): void {
    this.touch();
  }

  get pending(): boolean {
    return this.paths.size > 0 || this.doubt.length > 0;
  }

  /** Paths the open group holds now. */
  get held(): number {
    return this.paths.size;
  }

  /** Closes the open group now (if any), e.g. when the watcher stops. */
  flush(): void {
    this.clearTimers();
    if (!this.pending) return;
    const group = { paths: [...this.paths].sort(), doubt: this.doubt };
    this.paths = new Set();
    this.doubt = [];
    this.emit(group);
  }

  /** Drops the open group without emitting it. */
  stop(): void {
    this.clearTimers();
    this.paths.clear();
    this.doubt = [];
  }

  private touch(): void {
    this.lastEventAt = Date.now();
    if (this.quietTimer === undefined) this.armQuiet(this.timing.quietMs);
    this.maxTimer ??= setTimeout(() => this.flush(), this.timing.maxGroupMs);
  }

  private armQuiet(ms: number): void {
    count('watch.quietTimers');
    const armedAfter = this.lastEventAt;
    this.quietTimer = setTimeout(() => {
      // No event since this arming: the timer itself waited out the rest of the window. Comparing
      // Date.now() here instead would mix clocks: a timer runs on libuv's cached loop time, which
      // trails Date.now() by however long the loop has been busy, so it may seem to fire early.
      if (this.lastEventAt === armedAfter) return this.flush();
      this.armQuiet(Math.max(1, this.timing.quietMs - (Date.now() - this.lastEventAt)));
    }, ms);
  }

  private clearTimers(): void {
    clearTimeout(this.quietTimer);
    clearTimeout(this.maxTimer);
    this.quietTimer = undefined;
    this.maxTimer = undefined;
  }
}
