import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, lstatSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../privateModes.js';
import { restoreJournalDir } from '../store/storeLayout.js';
import { count } from '../trace.js';
import type { FileEntry } from '../../../shared/history.js';
import { safeTarget } from '../paths/safeTarget.js';
import { fsArg } from '../paths/fsPath.js';

// The temps a restore writes beside their targets in the project, `.NAME.hindsight-RUN`, RUN being
// one UUID per restore. Before its first temp is made, a restore writes the paths it may write to
// a journal in the store (restore-temps/RUN.json) and deletes the journal when it ends. A journal
// still there when a writer takes the store belongs to a restore that was killed: its temps, and
// only those, are removed. A user's file that merely looks like a temp is never touched. A
// snapshot restore also journals its steps (restoreSteps.ts) and the latest snapshot before it:
// the sweep hands those to `recover` (restoreRecovery.ts) before the temps go, and a sweep without
// one (no index to tell whether the restore was recorded) keeps that journal for the next writer.

const TEMP_NAME = /^\..*\.hindsight-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether a project path (or a file name) is named like a restore temp (the watcher ignores these). */
export function isRestoreTemp(path: string): boolean {
  return TEMP_NAME.test(path.slice(path.lastIndexOf('/') + 1));
}

function tempPath(absTarget: string, run: string): string {
  return join(dirname(absTarget), `.${basename(absTarget)}.hindsight-${run}`);
}

/** What one project path holds: a file or link as the index records it, a folder, or nothing. */
export type PathState = Pick<FileEntry, 'type' | 'hash' | 'mode' | 'size' | 'target'> | { type: 'folder'; mode?: number } | null;

/** One step of a snapshot restore (restore/restoreSteps.ts works them out): what the path holds before and after it. */
export interface RestoreStep {
  op: 'remove' | 'removeFolder' | 'makeFolder' | 'write';
  path: string;
  before: PathState;
  after: PathState;
}

/** A snapshot restore's steps, journaled with its temps. */
export interface JournaledSteps {
  steps: RestoreStep[];
  /** The latest snapshot before the restore: a later one of kind 'restore' is this restore, recorded. */
  latestBefore: number | null;
}

/** A killed restore's journal as the sweep reads it. */
export interface KilledRestore extends JournaledSteps {
  run: string;
}

/** One restore's temps, journaled in the store from before the first is made until the restore ends. */
export class RestoreTemps {
  private constructor(
    private readonly journal: string,
    private readonly run: string,
  ) {}

  static begin(storeDir: string, paths: readonly string[], steps?: JournaledSteps): RestoreTemps {
    const run = randomUUID();
    const dir = restoreJournalDir(storeDir);
    makePrivateDir(dir);
    const journal = join(dir, `${run}.json`);
    writeDurably(journal, JSON.stringify({ run, paths, ...steps }));
    return new RestoreTemps(journal, run);
  }

  /** A killed restore's temps, to put its steps back with (its journal names them). */
  static resume(journal: string, run: string): RestoreTemps {
    return new RestoreTemps(journal, run);
  }

  /** The temp a restore writes before renaming it over `absTarget`. */
  tempFor(absTarget: string): string {
    return tempPath(absTarget, this.run);
  }

  /** The restore is over: each temp was renamed into place or removed. */
  end(): void {
    rmSync(this.journal, { force: true });
  }

  /** The restore failed in a way that may have left temps: removes them, then the journal. */
  abandon(root: string): void {
    for (const { run, path } of journaledPaths(this.journal)) removeTemp(root, path, run);
    this.end();
  }
}

/** Runs a restore's writes with their temps journaled from before the first is made to the end. */
export async function withRestoreTemps<T>(
  store: { storeDir: string; root: string },
  paths: readonly string[],
  write: (temps: RestoreTemps) => Promise<T>,
): Promise<T> {
  const temps = RestoreTemps.begin(store.storeDir, paths);
  let result: T;
  try {
    result = await write(temps);
  } catch (error) {
    temps.abandon(store.root);
    throw error;
  }
  temps.end();
  return result;
}

/**
 * Removes the temps of restores that were killed, as their journals name them, and the journals.
 * Call only as the store's one writer: no restore of this store is running anywhere then.
 */
export function sweepRestoreTemps(storeDir: string, root: string, recover?: (killed: KilledRestore, temps: RestoreTemps) => void): number {
  const dir = restoreJournalDir(storeDir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    const journal = join(dir, name);
    const killed = journaledSteps(journal);
    if (killed && !recover) {
      // Whether its steps are undone depends on the index: the next writer with one decides.
      continue;
    }
    if (killed) recover!(killed, RestoreTemps.resume(journal, killed.run));
    // A journal cut short was being written when its restore died: no temp was made yet.
    for (const path of journaledPaths(journal)) removed += removeTemp(root, path.path, path.run);
    rmSync(journal, { force: true });
  }
  count('restore.tempsSwept', removed);
  return removed;
}

function journaledPaths(journal: string): { run: string; path: string }[] {
  try {
    const { run, paths } = JSON.parse(readFileSync(journal, 'utf8')) as { run?: unknown; paths?: unknown };
    if (typeof run !== 'string' || !/^[0-9a-f-]{36}$/.test(run) || !Array.isArray(paths)) return [];
    return paths.filter((p): p is string => typeof p === 'string').map((path) => ({ run, path }));
  } catch {
    return [];
  }
}

function journaledSteps(journal: string): KilledRestore | undefined {
  try {
    const { run, steps, latestBefore } = JSON.parse(readFileSync(journal, 'utf8')) as Partial<KilledRestore>;
    if (typeof run !== 'string' || !Array.isArray(steps)) return undefined;
    return { run, steps, latestBefore: typeof latestBefore === 'number' ? latestBefore : null };
  } catch {
    return undefined;
  }
}

function removeTemp(root: string, path: string, run: string): number {
  let temp: string;
  try {
    // The same checks a restore makes: a parent that became a link out of the project is left alone.
    temp = tempPath(safeTarget(root, path), run);
    const st = lstatSync(fsArg(temp));
    if (!st.isFile() && !st.isSymbolicLink()) return 0;
  } catch {
    return 0;
  }
  rmSync(fsArg(temp), { force: true });
  return 1;
}

function writeDurably(path: string, text: string): void {
  const fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
  try {
    const bytes = Buffer.from(text, 'utf8');
    for (let offset = 0; offset < bytes.length;) offset += writeSync(fd, bytes, offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  // The journal's name must survive a crash as well as its bytes.
  const dirFd = openSync(dirname(path), 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}
