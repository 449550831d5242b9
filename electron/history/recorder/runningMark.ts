import { randomUUID } from 'node:crypto';
import { readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../privateModes.js';
import { count } from '../trace.js';

// The recorder's sign of life, one small file per data folder: written once when a recorder
// starts (its content names the run), its mtime renewed every `RUNNING_BEAT_MS` while it runs,
// removed when it stops. A recorder killed (SIGKILL, a crash, a power cut) leaves it with the time
// of its last beat: the next start's catch-up titles its snapshot "from" that time, at most one beat
// before the truth. A beat touches one inode, never a project's history.db: an idle recorder
// writes nothing else.

/** The file's name in the data folder. */
export const RUNNING_FILE = 'recorder.running';

/** How often a running recorder renews the file's mtime: the bound on how early a catch-up's "from" may be. */
export const RUNNING_BEAT_MS = 10 * 60_000;

/** The beat's period: HINDSIGHT_RUNNING_BEAT_MS (for the tests of a recorder killed) or RUNNING_BEAT_MS. */
export function runningBeatMs(): number {
  const raw = process.env.HINDSIGHT_RUNNING_BEAT_MS;
  return raw && /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : RUNNING_BEAT_MS;
}

/** A run's mark as the next start reads it: which run wrote it, and when it last beat. */
export interface RunningBeat {
  run: string;
  at: number;
}

export class RunningMark {
  readonly run = randomUUID();
  private readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, RUNNING_FILE);
  }

  /** The last run's mark, read before this run writes its own (undefined when none was left). */
  static read(dataDir: string): RunningBeat | undefined {
    const path = join(dataDir, RUNNING_FILE);
    try {
      const run = readFileSync(path, 'utf8').trim();
      const at = statSync(path).mtimeMs;
      return run ? { run, at: Math.floor(at) } : undefined;
    } catch {
      return undefined;
    }
  }

  /** This run's mark, its mtime now. */
  begin(): void {
    try {
      writeFileSync(this.path, `${this.run}\n`, { mode: PRIVATE_FILE_MODE });
    } catch {
      // A data folder that cannot take it: the catch-up's span then starts at each project's own marks.
    }
  }

  /** Renews the mark's mtime: one inode update, however many projects the run records. */
  beat(at = Date.now()): void {
    count('recorder.beats');
    const seconds = at / 1000;
    try {
      utimesSync(this.path, seconds, seconds);
    } catch {
      // Removed meanwhile (by hand): written whole again.
      this.begin();
    }
  }

  /** A clean stop: every project's own mark says when it stopped, so the file goes. */
  end(): void {
    try {
      if (readFileSync(this.path, 'utf8').trim() === this.run) unlinkSync(this.path);
    } catch {
      // Gone already.
    }
  }
}
