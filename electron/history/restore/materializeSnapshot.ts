import { randomUUID } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { HindsightError } from '../../../shared/errors.js';
import type { FileEntry } from '../../../shared/history.js';
import { fsError } from '../fsErrors.js';
import type { ProgressSink } from '../progressThrottle.js';
import { TransferMeter } from '../transferMeter.js';
import { ReadAhead, type ReadAheadOptions } from '../store/readAhead.js';
import { BackgroundCloser, closeFailuresError, makeCloser, type Closer } from './backgroundCloser.js';
import { FolderMaker } from './folderMaker.js';
import { assertProjectPath } from '../paths/safeTarget.js';
import { fsArg } from '../paths/fsPath.js';
import type { BlobStore } from '../store/blobStore.js';

// Writes one snapshot into a new (or empty) folder: every file with its exact bytes and mode,
// every link as a link, every folder holding them with the mode recorded at that snapshot. It
// is how a snapshot is opened as a folder of its own, and what a clone writes once it has the
// history: the bytes come from a BlobSource (the local store here; a remote fetcher plugs in the
// same way), which must check them against their hash.
//
// Everything is written into a temp folder beside the destination and renamed onto it at the end,
// so a destination is either untouched or complete: a cut-off run leaves no half folder under the
// name asked for, and a failure removes the temp. Files are created new (O_EXCL, never through a
// link) and their closes go to the closer (backgroundCloser.ts: 4 in flight, 384 queued, on
// where closing is slow). A path whose parent is another entry of the snapshot (a link standing
// where a folder must be) is refused before anything is written, so no write follows a link.

const CHUNK = 1024 * 1024;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW;

/** Where a snapshot's bytes come from. */
export interface BlobSource {
  /**
   * Writes a blob's exact bytes into `fd` (a new, empty file), checked against `hash`: bytes that
   * do not match throw (BLOB_CORRUPT or the source's own error) and the run is abandoned.
   */
  writeInto(hash: string, size: number, fd: number): void | Promise<void>;
  /** The files about to be written, in the order they will be: a source may start reading ahead. */
  expect?(files: readonly FileEntry[]): void;
  /** The run is over (done or abandoned): whatever was read ahead is dropped. */
  close?(): Promise<void>;
}

/**
 * The project's own blob store, every blob hashed while it is read (store/blobStore.ts); the
 * small blobs of a long list are read ahead on worker threads (store/readAhead.ts).
 */
export function localBlobSource(blobs: BlobStore, readAhead?: ReadAheadOptions): BlobSource {
  const buffer = Buffer.allocUnsafe(CHUNK);
  let ahead: ReadAhead | undefined;
  return {
    expect(files) {
      ahead = ReadAhead.over(
        blobs,
        files.filter((f) => f.type !== 'symlink').map((f) => ({ hash: f.hash, size: f.size, path: f.path })),
        readAhead,
      );
    },
    writeInto(hash, size, fd) {
      const read = ahead?.take({ hash, size });
      if (read) return read.then((bytes) => writeAll(fd, bytes));
      blobs.copyInto(hash, fd, buffer, size);
    },
    async close() {
      await ahead?.close();
      ahead = undefined;
    },
  };
}

function writeAll(fd: number, bytes: Buffer): void {
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
}

/** What is written: the files of the snapshot (FileEntry rows, sorted or not) and its folders' recorded modes. */
export interface SnapshotContents {
  projectId: string;
  snapshotId: number;
  files: readonly FileEntry[];
  /** A folder's recorded mode at the snapshot, by project path; undefined leaves it as made. */
  folderModeOf: (path: string) => number | undefined;
  /** The snapshot's empty folders (db/emptyFolders.ts): made too. */
  emptyFolders?: readonly string[];
}

export interface MaterializeOptions {
  onProgress?: ProgressSink;
  signal?: AbortSignal;
  /** The closer to use; default: background where the platform wants it (makeCloser). */
  closer?: Closer;
  /** Forces the background closer on or off (benchmarks measure both). */
  background?: boolean;
  /**
   * The progress of a larger operation this write is a phase of (a clone): its write phase is
   * reported there, and the caller finishes it. Default: an operation of its own (onProgress).
   */
  meter?: TransferMeter;
  /**
   * Writes straight into `into`, which must be an existing empty folder, and empties it again on
   * failure: for a folder that must stay the same folder (a clone's, already registered by its
   * identity, which a rename onto it would change). Default: a temp folder renamed onto `into`.
   */
  inPlace?: boolean;
}

export interface MaterializeOutcome {
  into: string;
  files: number;
  links: number;
  folders: number;
  bytes: number;
  backgroundClose: boolean;
}

export async function materializeSnapshot(
  contents: SnapshotContents,
  into: string,
  source: BlobSource,
  options: MaterializeOptions = {},
): Promise<MaterializeOutcome> {
  const existing = checkDestination(into);
  const files = checkedEntries(contents.files);
  const bytesTotal = files.reduce((sum, f) => sum + (f.type === 'symlink' ? 0 : f.size), 0);
  const meter = options.meter ?? new TransferMeter('materialize', contents.projectId, options.onProgress);
  meter.enter('write', { bytes: bytesTotal, files: files.length });

  if (options.inPlace && !existing) throw new HindsightError('FOLDER_NOT_FOUND', `Cannot write into ${into}: it does not exist.`, { into });
  const temp = options.inPlace ? into : join(dirname(into), `.${basename(into)}.hindsight-${randomUUID()}`);
  if (!options.inPlace) {
    try {
      mkdirSync(temp);
    } catch (error) {
      throw fsError('make a folder beside', into, error, 'RESTORE_FAILED');
    }
  }
  const closer = options.closer ?? makeCloser({ background: options.background });
  const folders = new FolderMaker(temp, contents.folderModeOf);
  let links = 0;
  try {
    source.expect?.(files);
    for (const file of files) {
      options.signal?.throwIfAborted();
      // In the stored form: fsArg gives each fs call the exact bytes of a name.
      const abs = join(temp, file.path);
      makeFolder(folders, dirname(abs), file.path);
      if (file.type === 'symlink') {
        makeLink(file, abs);
        links++;
        meter.add({ files: 1 });
        continue;
      }
      const fd = await writeFile(file, abs, source);
      await closer.close(fd, file.path, () => meter.add({ files: 1, bytes: file.size }));
    }
    for (const path of contents.emptyFolders ?? []) {
      options.signal?.throwIfAborted();
      makeFolder(folders, join(temp, path), path);
    }
    await closer.drain();
    await source.close?.();
    if (closer.failures.length > 0) throw closeFailuresError(closer.failures, { into });
    const failed = folders.finish();
    if (failed.length > 0) throw failed[0]!.error;
    if (!options.inPlace) {
      if (existing) chmodSync(temp, existing.mode & 0o7777);
      placeFolder(temp, into);
    }
  } catch (error) {
    await closer.drain();
    await source.close?.();
    if (options.inPlace) for (const entry of readdirSync(into)) removeTree(join(into, entry));
    else removeTree(temp);
    if (options.signal?.aborted)
      throw new HindsightError('CANCELLED', `Writing snapshot ${contents.snapshotId} was cancelled; ${into} was left as it was.`, { into });
    throw error;
  }
  if (!options.meter) meter.finish();
  return { into, files: files.length - links, links, folders: countFolders(files), bytes: bytesTotal, backgroundClose: closer instanceof BackgroundCloser };
}

/** The destination must be new or an empty folder; its mode is kept when it exists. */
function checkDestination(into: string): { mode: number } | undefined {
  let st;
  try {
    st = lstatSync(into);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      try {
        if (!statSync(dirname(into)).isDirectory()) throw new Error('not a folder');
      } catch {
        throw new HindsightError('FOLDER_NOT_FOUND', `Cannot write into ${into}: the folder it goes in, ${dirname(into)}, does not exist.`, { into });
      }
      return undefined;
    }
    throw fsError('look at', into, error);
  }
  if (!st.isDirectory()) throw new HindsightError('NOT_A_FOLDER', `${into} exists and is not a folder; give a new or empty folder.`, { into });
  if (readdirSync(into).length > 0)
    throw new HindsightError('FOLDER_NOT_EMPTY', `${into} is not empty; give a new or empty folder, nothing was written.`, { into });
  return { mode: st.mode };
}

/**
 * The entries sorted by path, each a safe project path, none below another entry: in a real
 * snapshot a path is a file or a folder, never both, so such a pair can only be a damaged or
 * crafted history, and writing it could follow a link out of the folder.
 */
function checkedEntries(entries: readonly FileEntry[]): FileEntry[] {
  const files = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const paths = new Set<string>();
  for (const file of files) {
    assertProjectPath(file.path);
    if (paths.has(file.path)) throw inconsistent(file.path, 'it is listed twice');
    paths.add(file.path);
  }
  for (const file of files) {
    for (let at = file.path.lastIndexOf('/'); at > 0; at = file.path.lastIndexOf('/', at - 1)) {
      if (paths.has(file.path.slice(0, at))) throw inconsistent(file.path, `${file.path.slice(0, at)} is a file or link, not a folder`);
    }
  }
  return files;
}

function inconsistent(path: string, why: string): HindsightError {
  return new HindsightError('RESTORE_FAILED', `The snapshot cannot be written: ${path} (${why}). Nothing was written.`, { path });
}

function makeFolder(folders: FolderMaker, dir: string, path: string): void {
  try {
    folders.make(dir);
  } catch (error) {
    throw fsError('make the folder for', path, error, 'RESTORE_FAILED');
  }
}

function makeLink(file: FileEntry, abs: string): void {
  try {
    symlinkSync(fsArg(file.target ?? ''), fsArg(abs));
  } catch (error) {
    throw fsError('make the link', file.path, error, 'RESTORE_FAILED');
  }
}

/** A new file with the blob's bytes and the exact recorded mode, still open: the closer closes it. */
async function writeFile(file: FileEntry, abs: string, source: BlobSource): Promise<number> {
  let fd: number;
  try {
    fd = openSync(fsArg(abs), CREATE, 0o600);
  } catch (error) {
    throw fsError('write', file.path, error, 'RESTORE_FAILED');
  }
  try {
    const pending = source.writeInto(file.hash, file.size, fd);
    if (pending) await pending;
    // The open applied the umask; the file must carry the recorded bits exactly.
    fchmodSync(fd, file.mode & 0o7777);
  } catch (error) {
    closeSync(fd);
    throw fsError('write', file.path, error, 'RESTORE_FAILED');
  }
  return fd;
}

/** Renames the finished temp onto the destination (new, or an empty folder it replaces). */
function placeFolder(temp: string, into: string): void {
  try {
    renameSync(temp, into);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') {
      throw new HindsightError('FOLDER_NOT_EMPTY', `${into} was filled while the snapshot was written; nothing was written into it.`, { into });
    }
    throw fsError('put the finished folder at', into, error, 'RESTORE_FAILED');
  }
}

const SLASH = Buffer.from('/');

/** Removes a temp folder whatever modes its folders were given. */
function removeTree(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // A folder set without write permission (the recorded mode): open them up and try again.
    const open = (at: Buffer): void => {
      try {
        chmodSync(at, 0o700);
        // Listed as bytes: a name that is not UTF-8 is reached as it is.
        for (const entry of readdirSync(at, { withFileTypes: true, encoding: 'buffer' })) {
          if (entry.isDirectory()) open(Buffer.concat([at, SLASH, entry.name]));
        }
      } catch {
        // what cannot be opened is left; the message the caller throws says what failed
      }
    };
    open(Buffer.from(dir));
    rmSync(dir, { recursive: true, force: true });
  }
}

function countFolders(files: readonly FileEntry[]): number {
  const dirs = new Set<string>();
  for (const file of files) {
    for (let at = file.path.lastIndexOf('/'); at > 0; at = file.path.lastIndexOf('/', at - 1)) {
      const dir = file.path.slice(0, at);
      if (dirs.has(dir)) break;
      dirs.add(dir);
    }
  }
  return dirs.size;
}
