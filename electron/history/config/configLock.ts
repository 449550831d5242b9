import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { HindsightError } from '../../../shared/errors.js';
import { fsError } from '../fsErrors.js';
import { count } from '../trace.js';

// The lock that lets one process at a time edit config.json (the app and the CLI may both edit it).
// It is a file made with an exclusive create and holding its owner's pid, host and a random token.
// An owner that died (kill -9, a crash) never removes it, so a waiter that finds the owner's pid
// gone takes the lock over. Taking over is itself guarded by a short-lived breaker file, so two
// waiters can never both remove a lock and one of them remove the other's fresh lock.

export interface ConfigLock {
  readonly token: string;
  release(): void;
}

export interface LockOptions {
  /** How long to wait for a live owner before failing with CONFIG_LOCKED. */
  timeoutMs?: number;
}

interface LockOwner {
  pid: number;
  host: string;
  token: string;
  at: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** A lock or breaker file whose content cannot be read yet is given this long to be written. */
const UNWRITTEN_GRACE_MS = 2_000;
const MAX_POLL_MS = 50;

/** Tokens of the locks this process holds: a lock with our pid and another token is a dead predecessor's. */
const heldHere = new Set<string>();

export async function acquireConfigLock(lockPath: string, options: LockOptions = {}): Promise<ConfigLock> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const token = randomBytes(12).toString('hex');
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    if (tryCreate(lockPath, token)) return held(lockPath, token);
    const owner = readOwner(lockPath);
    if (owner === 'gone') continue;
    if (isStale(lockPath, owner)) {
      takeOver(lockPath, owner);
      continue;
    }
    if (Date.now() - started >= timeoutMs) throw lockedError(lockPath, owner, Date.now() - started);
    count('config.lockWaits');
    await sleep(Math.min(MAX_POLL_MS, 2 ** Math.min(attempt, 6)));
  }
}

function tryCreate(lockPath: string, token: string): boolean {
  const owner: LockOwner = { pid: process.pid, host: hostname(), token, at: Date.now() };
  try {
    writeFileSync(lockPath, JSON.stringify(owner), { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw fsError('create the config lock', lockPath, error, 'CONFIG_UNREADABLE');
  }
}

function held(lockPath: string, token: string): ConfigLock {
  heldHere.add(token);
  return {
    token,
    release() {
      heldHere.delete(token);
      // Only our own lock is removed: never one a waiter made after wrongly judging us dead.
      const owner = readOwner(lockPath);
      if (owner !== 'gone' && owner !== 'unwritten' && owner.token === token) unlinkQuietly(lockPath);
    },
  };
}

/** The owner recorded in a lock file, 'unwritten' when it cannot be parsed, 'gone' when there is no file. */
function readOwner(path: string): LockOwner | 'unwritten' | 'gone' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw fsError('read the config lock', path, error, 'CONFIG_UNREADABLE');
  }
  try {
    const owner = JSON.parse(text) as Partial<LockOwner>;
    if (typeof owner.pid === 'number' && typeof owner.token === 'string') {
      return { pid: owner.pid, host: String(owner.host ?? ''), token: owner.token, at: Number(owner.at ?? 0) };
    }
  } catch {
    // fall through: a lock being written, or one whose owner died between create and write
  }
  return 'unwritten';
}

function isStale(path: string, owner: LockOwner | 'unwritten'): boolean {
  if (owner === 'unwritten') return olderThan(path, UNWRITTEN_GRACE_MS);
  if (owner.host !== hostname()) return false; // another machine's pid says nothing here
  if (owner.pid === process.pid) return !heldHere.has(owner.token);
  return !processAlive(owner.pid);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by another user
  }
}

function takeOver(lockPath: string, stale: LockOwner | 'unwritten'): void {
  const breaker = `${lockPath}.break`;
  try {
    writeFileSync(breaker, String(process.pid), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw fsError('take over the config lock', lockPath, error, 'CONFIG_UNREADABLE');
    // Breaking takes microseconds: a breaker this old belongs to a process that died mid-break.
    if (olderThan(breaker, UNWRITTEN_GRACE_MS)) unlinkQuietly(breaker);
    return;
  }
  try {
    // Still the same stale lock? Another waiter may have taken it over and made its own meanwhile.
    const now = readOwner(lockPath);
    const same =
      now === 'unwritten'
        ? stale === 'unwritten' && olderThan(lockPath, UNWRITTEN_GRACE_MS)
        : now !== 'gone' && stale !== 'unwritten' && now.token === stale.token;
    if (same) {
      unlinkQuietly(lockPath);
      count('config.lockTakeovers');
    }
  } finally {
    unlinkQuietly(breaker);
  }
}

function olderThan(path: string, ms: number): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > ms;
  } catch {
    return false;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

function lockedError(lockPath: string, owner: LockOwner | 'unwritten', waitedMs: number): HindsightError {
  const who = owner === 'unwritten' ? 'another process' : `process ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`}`;
  return new HindsightError(
    'CONFIG_LOCKED',
    `The config is being edited by ${who}, which has held ${lockPath} for over ${Math.round(waitedMs / 1000)} s. Try again; if no Hindsight is running, delete that file.`,
    { lockPath, ownerPid: owner === 'unwritten' ? null : owner.pid, waitedMs },
  );
}
