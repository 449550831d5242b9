import { lstatSync, readdirSync } from 'node:fs';
import { HindsightError } from '../../../shared/errors.js';
import { appendAll } from '../../../shared/largeArrays.js';
import type { FileEntry } from '../../../shared/history.js';
import { fsPath, nameOfBytes } from '../paths/fsPath.js';
import type { PathState, RestoreStep } from '../project/restoreTemps.js';

// Every step a restore takes in the project, worked out before the first is taken, from the plan
// and what the disk holds now (one lstat per path and parent folder). The order is the order they
// run in: added files deleted, folders that stand where the snapshot has a file removed (deepest
// first), missing folders made (shallowest first), then each version written. A type change (file
// <-> folder, file <-> link, link <-> folder, nested) is a removal then a write. A folder the
// deletions leave empty, which the snapshot does not hold, is removed as a step of its own (its
// mode kept in the step, so a rollback makes it again as it was). What the disk holds
// in the way of a step and the restore may not remove (a file kept because --delete-added was not
// given, a file the history never recorded) is a conflict: the whole restore is refused before
// anything is written, naming each one. Each step says what the path holds before and after it, so
// a restore that fails or is killed can be put back (restoreRollback.ts).

// A step's shape is declared with the journal that keeps it (project/restoreTemps.ts), below this folder.
export type { PathState, RestoreStep };

export interface StepConflict {
  /** What stands in the way. */
  path: string;
  /** The path of the snapshot it blocks. */
  blocks: string;
  why: 'kept-added' | 'unrecorded';
}

/** What the steps are planned from (planRestore.ts's plan). */
export interface StepInput {
  write: readonly FileEntry[];
  recreate: readonly FileEntry[];
  emptyFolders: readonly string[];
  /** Recorded now, absent from the snapshot: each removed first when `deleteAdded`. */
  added: readonly FileEntry[];
  /** What the index records now at a path (the caller rescanned just before). */
  current: (path: string) => FileEntry | undefined;
  /** How what is in the way can be cleared: --delete-added (a snapshot restore), or by hand (one file's restore). */
  clearedBy?: 'delete-added' | 'hand';
  deleteAdded: boolean;
  /** The mode a folder the restore makes gets (the snapshot's, special bits dropped); asked once per folder. */
  folderMode: (path: string) => number | undefined;
}

/**
 * A check that runs on the planned steps before anything is written, answering what it refuses.
 * The folder's name rules (two names that would land on one file) plug in here.
 */
export type StepCheck = (steps: readonly RestoreStep[]) => StepConflict[];

export function planSteps(root: string, input: StepInput, checks: readonly StepCheck[] = []): RestoreStep[] {
  const disk = new DiskLook(root);
  const removable = new Map(input.deleteAdded ? input.added.map((f) => [f.path, f]) : []);
  const removes: RestoreStep[] = [...removable.values()].map((f) => ({ op: 'remove', path: f.path, before: stateOf(f), after: null }));
  const removeFolders = new Map<string, RestoreStep>();
  const makeFolders = new Map<string, RestoreStep>();
  const conflicts: StepConflict[] = [];
  const clear = (path: string, blocks: string) => {
    const at = disk.look(path);
    // A file or link in place is replaced by the write itself (a rename over it).
    if (at === null || at.type !== 'folder') return;
    // A folder where the snapshot has a file or link: everything in it must go with the restore.
    for (const inside of disk.contents(path)) {
      if (inside.folder) removeFolders.set(inside.path, { op: 'removeFolder', path: inside.path, before: { type: 'folder', mode: inside.mode }, after: null });
      else if (!removable.has(inside.path)) conflicts.push(blocking(inside.path, blocks, input.current));
    }
    removeFolders.set(path, { op: 'removeFolder', path, before: at, after: null });
  };
  const folderFor = (path: string, blocks: string) => {
    if (makeFolders.has(path)) return;
    const at = disk.look(path);
    if (at !== null && at.type === 'folder' && !removeFolders.has(path)) return;
    if (at !== null && at.type !== 'folder' && !removable.has(path)) return conflicts.push(blocking(path, blocks, input.current));
    const mode = input.folderMode(path);
    makeFolders.set(path, { op: 'makeFolder', path, before: null, after: mode === undefined ? { type: 'folder' } : { type: 'folder', mode } });
  };
  const parents = (path: string) => {
    for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) folderFor(path.slice(0, slash), path);
  };
  const writes: RestoreStep[] = [];
  for (const file of [...input.write, ...input.recreate].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    parents(file.path);
    clear(file.path, file.path);
    const recorded = input.current(file.path);
    // A file there the history never recorded (ignored, too large, made since the capture) would be
    // lost: a snapshot restore refuses it. A file's restore records its path itself first.
    const there = disk.look(file.path);
    if (!recorded && there !== null && there.type !== 'folder' && input.clearedBy !== 'hand') conflicts.push(blocking(file.path, file.path, input.current));
    writes.push({ op: 'write', path: file.path, before: recorded ? stateOf(recorded) : null, after: stateOf(file) });
  }
  for (const folder of input.emptyFolders) {
    parents(folder);
    folderFor(folder, folder);
  }
  const kept = [...writes.map((w) => w.path), ...makeFolders.keys(), ...input.emptyFolders];
  for (const step of emptiedFolders(disk, [...removable.keys()], kept, removeFolders)) removeFolders.set(step.path, step);
  const steps = [
    ...removes,
    ...[...removeFolders.values()].sort((a, b) => depth(b.path) - depth(a.path)),
    ...[...makeFolders.values()].sort((a, b) => depth(a.path) - depth(b.path)),
    ...writes,
  ];
  for (const check of checks) appendAll(conflicts, check(steps));
  if (conflicts.length > 0) throw conflictError(conflicts, input.clearedBy ?? 'delete-added');
  return steps;
}

/**
 * The folders that hold nothing once the files removed are gone (every entry removed, or a folder
 * emptied too), except those the restore writes into or the snapshot holds empty, and the project
 * folder itself. Looked at deepest first, on the disk as it is: a file the history never recorded
 * keeps its folder.
 */
function emptiedFolders(disk: DiskLook, removed: readonly string[], kept: readonly string[], removing: ReadonlyMap<string, RestoreStep>): RestoreStep[] {
  const keep = new Set<string>();
  for (const path of kept) for (const folder of [path, ...ancestors(path)]) keep.add(folder);
  const candidates = new Set(removed.flatMap(ancestors));
  const gone = new Set([...removed, ...removing.keys()]);
  const steps: RestoreStep[] = [];
  for (const folder of [...candidates].sort((a, b) => depth(b) - depth(a))) {
    if (keep.has(folder) || gone.has(folder)) continue;
    const at = disk.look(folder);
    if (at === null || at.type !== 'folder') continue;
    if (!disk.names(folder).every((name) => gone.has(`${folder}/${name}`))) continue;
    gone.add(folder);
    steps.push({ op: 'removeFolder', path: folder, before: at, after: null });
  }
  return steps;
}

/** The folders a path is in, deepest first, the project folder left out. */
function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) out.push(path.slice(0, slash));
  return out;
}

/** A path's state as the index records it. */
export function stateOf(file: FileEntry): PathState {
  return { type: file.type, hash: file.hash, mode: file.mode, size: file.size, ...(file.target === undefined ? {} : { target: file.target }) };
}

function blocking(path: string, blocks: string, current: StepInput['current']): StepConflict {
  return { path, blocks, why: current(path) !== undefined ? 'kept-added' : 'unrecorded' };
}

function depth(path: string): number {
  return path.split('/').length;
}

function conflictError(found: StepConflict[], clearedBy: 'delete-added' | 'hand'): HindsightError {
  // A file in the way of a folder blocks every path under it: named once, for the first.
  const named = new Set<string>();
  const conflicts = found.filter((c) => !named.has(c.path) && named.add(c.path));
  const first = conflicts[0]!;
  const how =
    first.why === 'unrecorded'
      ? `${first.path} is not in the history (move it away first)`
      : clearedBy === 'delete-added'
        ? `${first.path} was added since the snapshot and is kept (--delete-added deletes it, recorded first)`
        : `${first.path} is in its way (a file's restore deletes no other file: move it away or restore its folder)`;
  const more = conflicts.length > 1 ? ` (and ${conflicts.length - 1} more in the way)` : '';
  return new HindsightError('RESTORE_FAILED', `Cannot restore ${first.blocks}: ${how}${more}. Nothing was changed.`, {
    conflicts: conflicts.map((c) => ({ ...c })),
  });
}

/** lstat of project paths, each looked at once; a folder's contents listed when it must go. */
class DiskLook {
  private readonly seen = new Map<string, PathState | { type: 'other' }>();

  constructor(private readonly root: string) {}

  look(path: string): PathState {
    let state = this.seen.get(path);
    if (state === undefined) {
      state = lookAt(this.root, path);
      this.seen.set(path, state);
    }
    // A device or socket is in the way like an unrecorded file.
    return state !== null && state.type === 'other' ? { type: 'file', hash: '', mode: 0, size: 0 } : (state as PathState);
  }

  /** The names a folder holds now. */
  names(path: string): string[] {
    return readdirSync(fsPath(this.root, path), { encoding: 'buffer' }).map((name) => nameOfBytes(name));
  }

  /** Everything under a folder, folders after what they hold. */
  contents(path: string): { path: string; folder: boolean; mode: number }[] {
    const found: { path: string; folder: boolean; mode: number }[] = [];
    for (const entry of readdirSync(fsPath(this.root, path), { encoding: 'buffer', withFileTypes: true })) {
      const inside = `${path}/${nameOfBytes(entry.name)}`;
      if (entry.isDirectory()) {
        appendAll(found, this.contents(inside));
        found.push({ path: inside, folder: true, mode: lstatSync(fsPath(this.root, inside)).mode & 0o7777 });
      } else found.push({ path: inside, folder: false, mode: 0 });
    }
    return found;
  }
}

function lookAt(root: string, path: string): PathState | { type: 'other' } {
  let st;
  try {
    st = lstatSync(fsPath(root, path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
  if (st.isDirectory()) return { type: 'folder', mode: st.mode & 0o7777 };
  if (st.isFile() || st.isSymbolicLink()) return { type: st.isFile() ? 'file' : 'symlink', hash: '', mode: st.mode & 0o7777, size: st.size };
  return { type: 'other' };
}
