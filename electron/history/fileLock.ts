import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ErrorCode } from '../../shared/errors.js';
import { fsError } from './fsErrors.js';
import { count } from './trace.js';

// A lock that lets one process at a time do something (edit config.json, write a project's
// history). It is a file made with an exclusive create and holding its owner's pid, host, process
// start time and a random token. An owner that died (kill -9, a crash) never removes it, so a
// waiter that finds the owner gone takes the lock over; the start time tells a dead owner from an
// unrelated process that got its pid later. Taking over is itself guarded by a short-lived breaker
// file, so two waiters can never both remove a lock and one of them remove the other's fresh lock.

export interface FileLock {
  readonly token: string;
  /** Whether a dead owner's lock was taken over to get this one. */
  readonly tookOver: boolean;
  release(): void;
}

/** Who holds a lock, as far as its file says (null pid: not written yet). */
export interface LockHolder {
  pid: number | null;
  host: string | null;
}

export interface FileLockOptions {
  /** Names the lock in messages ("config lock") and in trace counters (`${counter}.lockWaits`). */
  label: string;
  counter: string;
  /** The error code of a lock file that cannot be made or read. */
  failCode: ErrorCode;
  /** How long to wait for a live owner; undefined: as long as it lives. */
  timeoutMs?: number;
  /** The error to throw when timeoutMs ran out. */
  timedOut?: (holder: LockHolder, waitedMs: number) => Error;
  /** Stops waiting (the signal's reason is thrown). */
  signal?: AbortSignal;
  /** Told once, when a live owner makes this wait. */
  onWait?: (holder: LockHolder) => void;
}

interface LockOwner {
  pid: number;
  host: string;
  token: string;
  at: number;
  /** The owner's start time in clock ticks since boot (Linux), to tell a reused pid apart. */
  start?: string;
}

/** A lock or breaker file whose content cannot be read yet is given this long to be written. */
const UNWRITTEN_GRACE_MS = 2_000;
const MAX_POLL_MS = 50;

/** Tokens of the locks this process holds: a lock with our pid and another token is a dead predecessor's. */
const heldHere = new Set<string>();

export async function acquireFileLock(lockPath: string, options: FileLockOptions): Promise<FileLock> {
  const token = randomBytes(12).toString('hex');
  const started = Date.now();
  let tookOver = false;
  let told = false;
  for (let attempt = 0; ; attempt++) {
    options.signal?.throwIfAborted();
    if (tryCreate(lockPath, token, options)) return held(lockPath, token, tookOver, options);
    const owner = readOwner(lockPath, options);
    if (owner === 'gone') continue;
    if (isStale(lockPath, owner)) {
      if (takeOver(lockPath, owner, options)) tookOver = true;
      continue;
    }
    const holder = holderOf(owner);
    if (options.timeoutMs !== undefined && Date.now() - started >= options.timeoutMs) {
      const waited = Date.now() - started;
      throw options.timedOut?.(holder, waited) ?? new Error(`${lockPath} is held by process ${holder.pid ?? '?'}.`);
    }
    if (!told) {
      told = true;
      options.onWait?.(holder);
    }
    count(`${options.counter}.lockWaits`);
    await sleep(Math.min(MAX_POLL_MS, 2 ** Math.min(attempt, 6)), undefined, { signal: options.signal }).catch(() => undefined);
  }
}

function tryCreate(lockPath: string, token: string, options: FileLockOptions): boolean {
  const owner: LockOwner = { pid: process.pid, host: hostname(), token, at: Date.now() };
  const start = startTimeOf(process.pid);
  if (start !== undefined) owner.start = start;
  try {
    writeFileSync(lockPath, JSON.stringify(owner), { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw fsError(`create the ${options.label}`, lockPath, error, options.failCode);
  }
}

function held(lockPath: string, token: string, tookOver: boolean, options: FileLockOptions): FileLock {
  heldHere.add(token);
  return {
    token,
    tookOver,
    release() {
      heldHere.delete(token);
      // Only our own lock is removed: never one a waiter made after wrongly judging us dead.
      const owner = readOwner(lockPath, options);
      if (owner !== 'gone' && owner !== 'unwritten' && owner.token === token) unlinkQuietly(lockPath);
    },
  };
}

/** The owner recorded in a lock file, 'unwritten' when it cannot be parsed, 'gone' when there is no file. */
function readOwner(path: string, options: FileLockOptions): LockOwner | 'unwritten' | 'gone' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw fsError(`read the ${options.label}`, path, error, options.failCode);
  }
  try {
    const owner = JSON.parse(text) as Partial<LockOwner>;
    if (typeof owner.pid === 'number' && typeof owner.token === 'string') {
      const read: LockOwner = { pid: owner.pid, host: String(owner.host ?? ''), token: owner.token, at: Number(owner.at ?? 0) };
      if (typeof owner.start === 'string') read.start = owner.start;
      return read;
    }
  } catch {
    // fall through: a lock being written, or one whose owner died between create and write
  }
  return 'unwritten';
}

function holderOf(owner: LockOwner | 'unwritten'): LockHolder {
  return owner === 'unwritten' ? { pid: null, host: null } : { pid: owner.pid, host: owner.host };
}

function isStale(path: string, owner: LockOwner | 'unwritten'): boolean {
  if (owner === 'unwritten') return olderThan(path, UNWRITTEN_GRACE_MS);
  if (owner.host !== hostname()) return false; // another machine's pid says nothing here
  if (owner.pid === process.pid) return !heldHere.has(owner.token);
  if (!processAlive(owner.pid)) return true;
  // The pid is in use: by the owner, or by a process started after the owner died.
  const start = owner.start === undefined ? undefined : startTimeOf(owner.pid);
  return start !== undefined && start !== owner.start;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by another user
  }
}

/** A process's start time from /proc (Linux); undefined where there is no /proc. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The name in parentheses may hold spaces: fields are counted after its closing parenthesis.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Removes a stale lock unless someone else broke it first; true when this call removed it. */
function takeOver(lockPath: string, stale: LockOwner | 'unwritten', options: FileLockOptions): boolean {
  const breaker = `${lockPath}.break`;
  try {
    writeFileSync(breaker, String(process.pid), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw fsError(`take over the ${options.label}`, lockPath, error, options.failCode);
    // Breaking takes microseconds: a breaker this old belongs to a process that died mid-break.
    if (olderThan(breaker, UNWRITTEN_GRACE_MS)) unlinkQuietly(breaker);
    return false;
  }
  try {
    // Still the same stale lock? Another waiter may have taken it over and made its own meanwhile.
    const now = readOwner(lockPath, options);
    const same =
      now === 'unwritten'
        ? stale === 'unwritten' && olderThan(lockPath, UNWRITTEN_GRACE_MS)
        : now !== 'gone' && stale !== 'unwritten' && now.token === stale.token;
    if (!same) return false;
    unlinkQuietly(lockPath);
    count(`${options.counter}.lockTakeovers`);
    return true;
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
