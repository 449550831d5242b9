import { createHash } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, openSync, readSync, rmdirSync, rmSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { fsPath, linkTarget } from '../paths/fsPath.js';
import type { PathState, RestoreStep } from './restoreSteps.js';
import type { RestoreTemps } from '../project/restoreTemps.js';
import { writeVersion } from './writeVersion.js';
import type { BlobStore } from '../store/blobStore.js';

// Puts a restore's steps back, last first: each path that holds what its step left is given what
// it held before (a file or link from its recorded blob, a folder made again with the mode it had,
// a folder the restore made removed). A path that holds neither what the step left nor what it found was changed by
// someone else since: it is left alone and named. A path still as it was before needs nothing.
// Used when a step fails (restoreSnapshot.ts) and, for a restore killed midway, by the next
// writer (restoreRecovery.ts); both call it with the restore's own temps.

export interface RollbackOutcome {
  /** Paths given back what they held before the restore. */
  putBack: string[];
  /** Paths changed since by someone else, or that could not be put back: left as they are. */
  leftAlone: { path: string; reason: string }[];
}

export function rollBack(root: string, blobs: BlobStore, steps: readonly RestoreStep[], temps: RestoreTemps): RollbackOutcome {
  const outcome: RollbackOutcome = { putBack: [], leftAlone: [] };
  const folders: FolderBack[] = [];
  for (const { path, states } of chains(steps)) {
    const original = states[0]!;
    if (diskHolds(root, path, original)) continue;
    const now = states.slice(1).find((state) => diskHolds(root, path, state));
    if (now === undefined) {
      outcome.leftAlone.push({ path, reason: 'changed since the restore' });
      continue;
    }
    try {
      putBefore(root, blobs, path, now, original, temps);
      outcome.putBack.push(path);
      if (original?.type === 'folder' && original.mode !== undefined) folders.push({ path, mode: original.mode });
    } catch (error) {
      outcome.leftAlone.push({ path, reason: (error as Error).message });
    }
  }
  setFolderModes(root, folders, outcome);
  return outcome;
}

interface FolderBack {
  path: string;
  mode: number;
}

/**
 * The folders made again get the mode they had, whatever the umask: once what they held is back
 * in them, deepest first, so a folder without write or search permission is set after its contents.
 */
function setFolderModes(root: string, folders: readonly FolderBack[], outcome: RollbackOutcome): void {
  for (const { path, mode } of [...folders].sort((a, b) => b.path.split('/').length - a.path.split('/').length)) {
    try {
      chmodSync(fsPath(root, path), mode);
    } catch (error) {
      outcome.putBack.splice(outcome.putBack.indexOf(path), 1);
      outcome.leftAlone.push({ path, reason: (error as Error).message });
    }
  }
}

/** The paths of a restore carried out whose disk no longer holds what its steps left. */
export function changedSince(root: string, steps: readonly RestoreStep[]): string[] {
  return chains(steps)
    .filter(({ path, states }) => !diskHolds(root, path, states.at(-1)!))
    .map((c) => c.path);
}

/**
 * Each path's states through the steps, first to last (a folder where the snapshot has a file is
 * removed, then the file written: folder, nothing, file), the paths whose last step came last first,
 * so a folder's contents are put back before the folder and a folder made before what it held.
 */
function chains(steps: readonly RestoreStep[]): { path: string; states: PathState[] }[] {
  const byPath = new Map<string, { path: string; states: PathState[]; last: number }>();
  steps.forEach((step, at) => {
    const chain = byPath.get(step.path);
    if (chain) {
      chain.states.push(step.after);
      chain.last = at;
    } else byPath.set(step.path, { path: step.path, states: [step.before, step.after], last: at });
  });
  return [...byPath.values()].sort((a, b) => b.last - a.last);
}

function putBefore(root: string, blobs: BlobStore, path: string, now: PathState, before: PathState, temps: RestoreTemps): void {
  const at = fsPath(root, path);
  // What stands there first goes when it is of another kind than what comes back.
  if (now?.type === 'folder' && before?.type !== 'folder') rmdirSync(at);
  else if (now !== null && now.type !== 'folder' && (before === null || before.type === 'folder')) rmSync(at, { force: true });
  if (before === null) return;
  if (before.type === 'folder') {
    // Its mode is set once what it held is back (setFolderModes).
    mkdirSync(at, { recursive: true });
  } else {
    writeVersion(blobs, { ...before, target: before.target ?? null }, join(root, path), path, temps);
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
  return st.isFile() && (st.mode & 0o7777) === (state.mode & 0o7777) && st.size === state.size && hashOrNull(root, path) === state.hash;
}

/** A file that cannot be read holds no state a restore left: it is left alone and named. */
function hashOrNull(root: string, path: string): string | null {
  try {
    return hashOf(root, path);
  } catch {
    return null;
  }
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
