import { hostname } from 'node:os';
import { HindsightError } from '../../../shared/errors.js';
import { acquireFileLock, type FileLock, type LockHolder } from '../fileLock.js';

// The lock that lets one process at a time edit config.json (the app and the CLI may both edit
// it): a file lock (fileLock.ts) with a short wait, after which the edit fails with CONFIG_LOCKED.

export type ConfigLock = FileLock;

export interface LockOptions {
  /** How long to wait for a live owner before failing with CONFIG_LOCKED. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

export function acquireConfigLock(lockPath: string, options: LockOptions = {}): Promise<ConfigLock> {
  return acquireFileLock(lockPath, {
    label: 'config lock',
    counter: 'config',
    failCode: 'CONFIG_UNREADABLE',
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    timedOut: (holder, waitedMs) => lockedError(lockPath, holder, waitedMs),
  });
}

function lockedError(lockPath: string, holder: LockHolder, waitedMs: number): HindsightError {
  const who = holder.pid === null ? 'another process' : `process ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}`;
  return new HindsightError(
    'CONFIG_LOCKED',
    `The config is being edited by ${who}, which has held ${lockPath} for over ${Math.round(waitedMs / 1000)} s. Try again; if no Hindsight is running, delete that file.`,
    { lockPath, ownerPid: holder.pid, waitedMs },
  );
}
