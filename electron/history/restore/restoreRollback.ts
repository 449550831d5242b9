import { createHash } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, openSync, readSync, rmdirSync, rmSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { fsPath, linkTarget } from '../paths/fsPath.js';
import type { PathState, RestoreStep } from './restoreSteps.js';
import type { RestoreTemps } from './restoreTemps.js';
import { writeVersion } from './writeVersion.js';

// Puts a restore's steps back, last first: each path that holds what its step left is given what
// it held before (a file or link from its recorded blob, a folder made again, a folder the restore
// made removed). A path that holds neither what the step left nor what it found was changed by
// someone else since: it is left alone and named. A path still as it was before needs nothing.
// Used when a step fails (restoreSnapshot.ts) and, for a restore killed midway, by the next
// writer (restoreRecovery.ts); both call it with the restore's own temps.

export interface RollbackOutcome {
  /** Paths given back what they held before the restore. */
  putBack: string[];
  /** Paths changed since by someone else, or that could not be put back: left as they are. */
  leftAlone: { path: string; reason: string }[];
}

export function rollBack(root: string, blobsDir: string, steps: readonly RestoreStep[], temps: RestoreTemps): RollbackOutcome {
  const outcome: RollbackOutcome = { putBack: [], leftAlone: [] };
  for (const step of [...steps].reverse()) {
    if (diskHolds(root, step.path, step.before)) continue;
    if (!diskHolds(root, step.path, step.after)) {
      outcome.leftAlone.push({ path: step.path, reason: 'changed since the restore' });
      continue;
    }
    try {
      putBefore(root, blobsDir, step, temps);
      outcome.putBack.push(step.path);
    } catch (error) {
      outcome.leftAlone.push({ path: step.path, reason: (error as Error).message });
    }
  }
  return outcome;
}

/** The paths of a restore carried out whose disk no longer holds what its step left. */
export function changedSince(root: string, steps: readonly RestoreStep[]): string[] {
  return steps.filter((s) => !diskHolds(root, s.path, s.after)).map((s) => s.path);
}

function putBefore(root: string, blobsDir: string, step: RestoreStep, temps: RestoreTemps): void {
  const abs = join(root, step.path);
  const before = step.before;
  if (before === null) {
    if (step.after?.type === 'folder') rmdirSync(fsPath(root, step.path));
    else rmSync(fsPath(root, step.path), { force: true });
  } else if (before.type === 'folder') {
    mkdirSync(fsPath(root, step.path), { recursive: true });
    chmodSync(fsPath(root, step.path), before.mode);
  } else {
    writeVersion(blobsDir, { ...before, target: before.target ?? null }, abs, step.path, temps);
  }
}

/** Whether a path holds exactly a state: its type, mode and bytes (a file's hash, a link's target). */
export function diskHolds(root: string, path: string, state: PathState): boolean {
  let st;
  try {
    st = lstatSync(fsPath(root, path));
  } catch {
    return state === null;
  }
  if (state === null) return false;
  // A folder's mode is set once everything in it is written (folderMaker.ts): its type is what tells.
  if (state.type === 'folder') return st.isDirectory();
  if (state.type === 'symlink') return st.isSymbolicLink() && linkTarget(fsPath(root, path)) === (state.target ?? '');
  return st.isFile() && (st.mode & 0o7777) === (state.mode & 0o7777) && st.size === state.size && hashOf(root, path) === state.hash;
}

const CHUNK = 1024 * 1024;

function hashOf(root: string, path: string): string {
  const hash = createHash('sha256');
  const fd = openSync(fsPath(root, path), 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) hash.update(buffer.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}
