import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFileAtomic } from '../privateModes.js';

// The user's pause outlives the process that took it: the app's tray, or a page of `serve`, pauses
// recording; a recorder started afterwards for the same data folder (the app again, `serve`, the
// one `hindsight view` starts) stays paused until resumed, or until a timed pause would have
// ended. Kept as <dataDir>/recording-paused.json ({"resumesAt": ms | null}), removed by a resume.

const MARK = 'recording-paused.json';

/** The pause still in force for this data folder, or null (none, ended, or unreadable). */
export function readPause(dataDir: string, now = Date.now()): { resumesAt: number | null } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(dataDir, MARK), 'utf8'));
  } catch {
    return null;
  }
  const resumesAt = (parsed as { resumesAt?: unknown } | null)?.resumesAt;
  if (resumesAt === null) return { resumesAt: null };
  return typeof resumesAt === 'number' && Number.isFinite(resumesAt) && resumesAt > now ? { resumesAt } : null;
}

export function writePause(dataDir: string, resumesAt: number | null): void {
  writePrivateFileAtomic(join(dataDir, MARK), `${JSON.stringify({ resumesAt })}\n`);
}

export function clearPause(dataDir: string): void {
  rmSync(join(dataDir, MARK), { force: true });
}
