import { spawn, type ChildProcess } from 'node:child_process';

// `hindsight watch --all --json` as a child process, its stdout read as JSON lines, each stamped
// with the moment it arrived (performance.now()). The benchmark waits on these lines: a change
// group names its project and changed paths, a state line names a project and its state.

export interface RecorderLine {
  at: number;
  json: Record<string, unknown>;
}

export interface GroupLine {
  projectId: string;
  changed: string[];
  reconciled: boolean;
}

/** How long a wait may take before the benchmark gives up (a hang, not a measurement). */
const GIVE_UP_MS = 30 * 60 * 1000;

export class RecorderProcess {
  readonly lines: RecorderLine[] = [];
  readonly startedAt: number;
  private readonly child: ChildProcess;
  private readonly exited: Promise<number | null>;
  private stderr = '';
  private pending = '';
  private waiters: (() => void)[] = [];

  constructor(cli: string, dataDir: string, quietMs: number) {
    this.startedAt = performance.now();
    this.child = spawn(process.execPath, [cli, 'watch', '--all', '--json', '--quiet-ms', String(quietMs), '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (chunk: Buffer) => this.take(chunk));
    this.child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) =>
      this.child.on('exit', (code) => {
        this.wake();
        resolve(code);
      }),
    );
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** The first line from index `from` on that `match` accepts, once it has arrived. */
  async waitFor(what: string, match: (line: RecorderLine) => boolean, from = 0): Promise<RecorderLine> {
    const deadline = performance.now() + GIVE_UP_MS;
    for (let i = from; ; i++) {
      while (i >= this.lines.length) {
        if (this.child.exitCode !== null)
          throw new Error(`the recorder exited (${this.child.exitCode}) while waiting for ${what}: ${this.stderr.slice(-2000)}`);
        if (performance.now() > deadline) throw new Error(`gave up waiting for ${what}`);
        await new Promise<void>((resolve) => {
          this.waiters.push(resolve);
          setTimeout(resolve, 1000).unref();
        });
      }
      if (match(this.lines[i]!)) return this.lines[i]!;
    }
  }

  /**
   * Waits until every one of `count` projects is recorded: `recording`, or `rescanning` when the OS
   * refused its watch (the machine's inotify limit, shared by every process of the user); returns
   * each project's root by id and the ids of those rescanned instead of watched.
   */
  async allRecording(count: number): Promise<{ at: number; roots: Map<string, string>; rescanning: string[] }> {
    const roots = new Map<string, string>();
    const rescanning: string[] = [];
    let at = 0;
    for (let from = 0; roots.size < count;) {
      const line = await this.waitFor(`${count} projects recording`, (l) => l.json.state !== undefined, from);
      from = this.lines.indexOf(line) + 1;
      const { state, projectId, root } = line.json;
      if (state !== 'recording' && state !== 'rescanning') throw new Error(`a project is ${String(state)}, not recording: ${JSON.stringify(line.json)}`);
      if (state === 'rescanning') rescanning.push(String(projectId));
      roots.set(String(projectId), String(root));
      at = line.at;
    }
    return { at, roots, rescanning };
  }

  /** Change groups among the lines from index `from` on. */
  groupsFrom(from: number): (GroupLine & { at: number })[] {
    return this.lines
      .slice(from)
      .filter((l) => Array.isArray(l.json.changed))
      .map((l) => ({ ...asGroup(l.json), at: l.at }));
  }

  /** SIGTERM (every open group is written first); resolves with its exit code. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode === null) this.child.kill('SIGTERM');
    return this.exited;
  }

  get errors(): string {
    return this.stderr;
  }

  private take(chunk: Buffer): void {
    const at = performance.now();
    this.pending += chunk.toString();
    const parts = this.pending.split('\n');
    this.pending = parts.pop()!;
    for (const part of parts) if (part.trim()) this.lines.push({ at, json: JSON.parse(part) as Record<string, unknown> });
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

function asGroup(json: Record<string, unknown>): GroupLine {
  return { projectId: String(json.projectId), changed: json.changed as string[], reconciled: json.reconciled === true };
}
