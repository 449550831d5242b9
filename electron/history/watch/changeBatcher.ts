// Groups the paths the watcher reports into change groups: a group closes once nothing happened
// for the quiet window, or when it has been open for the longest a group may last, so a file still
// being written is captured once it settles and a busy folder still gets a snapshot now and then.
// "Doubt" (a watcher error, a folder created or removed, an ignore file edited) rides along with
// the group and makes its commit a full reconciling rescan instead of a look at the paths alone.

export interface BatchTiming {
  quietMs: number;
  maxGroupMs: number;
}

export const DEFAULT_TIMING: BatchTiming = { quietMs: 2000, maxGroupMs: 30_000 };

export interface ChangeGroupRequest {
  paths: string[];
  doubt: string[];
}

export class ChangeBatcher {
  private paths = new Set<string>();
  private doubt: string[] = [];
  private quietTimer: NodeJS.Timeout | undefined;
  private maxTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly timing: BatchTiming,
    private readonly emit: (group: ChangeGroupRequest) => void,
  ) {}

  add(path: string): void {
    this.paths.add(path);
    this.touch();
  }

  markDoubt(reason: string): void {
    if (!this.doubt.includes(reason)) this.doubt.push(reason);
    this.touch();
  }

  get pending(): boolean {
    return this.paths.size > 0 || this.doubt.length > 0;
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
    clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => this.flush(), this.timing.quietMs);
    this.maxTimer ??= setTimeout(() => this.flush(), this.timing.maxGroupMs);
  }

  private clearTimers(): void {
    clearTimeout(this.quietTimer);
    clearTimeout(this.maxTimer);
    this.quietTimer = undefined;
    this.maxTimer = undefined;
  }
}
