import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFileAtomic } from './privateModes.js';

// How `hindsight view` finds a viewer already running: a serve writes <dataDir>/viewer.json (its
// pid, its URL with the token) when it listens, the app's history process its pid (the app shows
// a file through a hindsight:// link), and each removes it when it stops. The file carries the
// token, so it is 0600 like the history itself; it is written whole to a temp and renamed, so a
// reader never sees half of it. A file left by a process that died (SIGKILL) names a pid that is
// gone: the reader treats it as absent and removes it.

export const DISCOVERY_FILE = 'viewer.json';

export type RunningViewer =
  /** The browser host: its address with its token (http://127.0.0.1:PORT/?token=…). */
  | { kind: 'serve'; pid: number; url: string }
  /** The app's history process: the app takes hindsight:// links. */
  | { kind: 'app'; pid: number };

/** Records this process as the data folder's running viewer; returns the function that removes the record. */
export function announceViewer(dataDir: string, viewer: RunningViewer): () => void {
  const path = join(dataDir, DISCOVERY_FILE);
  writePrivateFileAtomic(path, `${JSON.stringify(viewer)}\n`);
  return () => {
    // Only our own record: a newer viewer may have announced itself since.
    if (readViewer(dataDir)?.pid === viewer.pid) rmSync(path, { force: true });
  };
}

/** The viewer running for this data folder, or null (none, or its process is gone: its record is removed). */
export function findRunningViewer(dataDir: string): RunningViewer | null {
  const viewer = readViewer(dataDir);
  if (viewer === null) return null;
  if (processAlive(viewer.pid)) return viewer;
  rmSync(join(dataDir, DISCOVERY_FILE), { force: true });
  return null;
}

function readViewer(dataDir: string): RunningViewer | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(dataDir, DISCOVERY_FILE), 'utf8'));
  } catch {
    return null; // absent, or not ours to make sense of: no viewer is announced
  }
  const { kind, pid, url } = (parsed ?? {}) as { kind?: unknown; pid?: unknown; url?: unknown };
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid)) return null;
  if (kind === 'app') return { kind, pid };
  if (kind !== 'serve' || typeof url !== 'string' || !/^http:\/\/(127\.0\.0\.1|\[::1\]|localhost):\d+\//.test(url)) return null;
  return { kind, pid, url };
}

function processAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: gone. EPERM: the pid now belongs to another user's process, so ours is gone too.
    return false;
  }
}
