import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { HindsightError } from '../../../shared/errors.js';
import type { SnapshotEffect, SnapshotInfo } from '../../../shared/history.js';
import { HistoryIndex } from '../db/historyIndex.js';
import { refuseNewerStore } from '../db/schemaVersion.js';
import { assertIndexFile } from '../db/indexFile.js';
import { GitContext } from '../git/gitContext.js';
import { BlobStore } from '../store/blobStore.js';
import { historyBackupPath, historyDbPath, projectStoreDir } from '../store/storeLayout.js';
import { fsError } from '../fsErrors.js';
import { diskSpelling } from '../paths/diskSpelling.js';
import { ensurePrivateFile, tightenDir } from '../privateModes.js';
import { dataDirWithin } from './dataDirPlace.js';
import { currentIdentity, sameIdentity, type FolderIdentity } from './folderIdentity.js';
import { projectIdOf } from './projectId.js';
import { WriterLock, type RestoreRecovery } from './writerLock.js';

// One project's history store, open: its folder, its blob store (store/blobStore.ts), its index and its writer lock.
// Opening refuses a store written by a newer Hindsight before touching it, and a folder that was
// replaced at the same path; the temps of writes that never finished are swept by the next writer
// (writerLock.ts), never by a reader.

export interface StoreOptions {
  /** Told every snapshot the moment it is committed (the engine's events start here). */
  onSnapshot?: (projectId: string, snapshot: SnapshotInfo, effect?: SnapshotEffect) => void;
  /** Completes or puts back a restore a killed writer left, when the writer lock is first taken (writerLock.ts); without it such a restore is left to a store opened with it. */
  recoverRestore?: RestoreRecovery;
}

export class ProjectStore {
  private constructor(
    readonly projectId: string,
    readonly root: string,
    readonly storeDir: string,
    readonly blobs: BlobStore,
    readonly index: HistoryIndex,
    readonly identity: FolderIdentity,
    /** The data folder's project path when it lies inside the project: never recorded, never written by a restore. */
    readonly dataFolder: string | undefined,
    recoverRestore: RestoreRecovery | undefined,
  ) {
    this.git = new GitContext(root);
    this.writer = new WriterLock({ storeDir, blobs, root, index, recoverRestore });
    // Every snapshot records the branch and commit it was taken on, whoever writes it.
    index.setSnapshotContext(() => this.git.snapshotContext());
    // A blob any reader finds missing or damaged is marked, so its name is no longer trusted.
    this.stopDamageMarks = blobs.onDamage((hash, problem) => {
      if (index.open) index.damage.markDamaged(hash, problem);
    });
  }

  private readonly stopDamageMarks: () => void;

  /** The folder's git repository, if it is in one. */
  readonly git: GitContext;
  /** Held by every write to this history: one writer at a time across processes. */
  readonly writer: WriterLock;

  static open(folder: string, dataDir: string, options: StoreOptions = {}): ProjectStore {
    const root = resolveFolder(folder);
    const dataFolder = dataDirWithin(root, dataDir);
    const identity = currentIdentity(root);
    if (!identity) throw new HindsightError('FOLDER_NOT_FOUND', `The folder ${folder} does not exist.`, { path: folder });
    const projectId = projectIdOf(root);
    const storeDir = projectStoreDir(dataDir, projectId);
    const blobs = BlobStore.of(storeDir);
    // An index that is there but unreadable, or written by a newer Hindsight, is refused before
    // anything in the store is made, narrowed or opened.
    assertIndexFile(historyDbPath(storeDir), holdsHistory(storeDir));
    refuseNewerStore(historyDbPath(storeDir));
    try {
      blobs.makeFolder();
      // Folders an earlier Hindsight made under the umask: private now, before anything is read.
      for (const dir of [dirname(storeDir), storeDir]) tightenDir(dir);
      // SQLite makes its files with the database's mode: made 0600 here, its -wal and -shm follow.
      ensurePrivateFile(historyDbPath(storeDir));
    } catch (error) {
      throw fsError('prepare the history store at', storeDir, error);
    }
    const onSnapshot = options.onSnapshot;
    const index = new HistoryIndex(historyDbPath(storeDir), {
      expectHistory: holdsHistory(storeDir),
      onSnapshot: onSnapshot && ((snapshot, effect) => onSnapshot(projectId, snapshot, effect)),
      blobPresent: (hash) => blobs.has(hash),
    });
    try {
      checkRecordedIdentity(index, root, identity);
    } catch (error) {
      index.close();
      throw error;
    }
    return new ProjectStore(projectId, root, storeDir, blobs, index, identity, dataFolder, options.recoverRestore);
  }

  /** Fails when the folder vanished or was replaced since the store was opened. */
  assertFolderUnchanged(): void {
    const now = currentIdentity(this.root);
    if (!now) {
      throw new HindsightError('FOLDER_VANISHED', `The folder ${this.root} disappeared while Hindsight was working on it.`, {
        root: this.root,
      });
    }
    if (!sameIdentity(now, this.identity)) {
      throw new HindsightError('FOLDER_REPLACED', `The folder ${this.root} was replaced by another folder at the same path.`, {
        root: this.root,
      });
    }
  }

  close(): void {
    this.stopDamageMarks();
    this.index.close();
  }
}

/**
 * Whether the store already holds a history (a stored blob or an index backup), so an empty index
 * is a lost one. A blob folder holding only temps a killed first copy left is no history yet.
 */
export function holdsHistory(storeDir: string): boolean {
  if (existsSync(historyBackupPath(storeDir))) return true;
  return BlobStore.of(storeDir).holdsAny();
}

export function resolveFolder(folder: string): string {
  let root: string;
  try {
    // The spelling on disk: one folder typed `~/rd` or `~/RD` where names fold is one project.
    root = diskSpelling(realpathSync(folder));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new HindsightError('FOLDER_NOT_FOUND', `The folder ${folder} does not exist.`, { path: folder });
    }
    throw fsError('open the folder', folder, error);
  }
  if (!statSync(root).isDirectory()) {
    throw new HindsightError('NOT_A_FOLDER', `${folder} is a file, not a folder.`, { path: folder });
  }
  return root;
}

function checkRecordedIdentity(index: HistoryIndex, root: string, identity: FolderIdentity): void {
  const recorded = index.getMeta('identity');
  if (!recorded) {
    index.setMeta('root', root);
    index.setMeta('identity', JSON.stringify(identity));
    return;
  }
  if (sameIdentity(JSON.parse(recorded) as FolderIdentity, identity)) return;
  if (index.snapshotReads.baselineId() === undefined) {
    // A first copy that never finished names nothing yet: the folder now at the path simply owns
    // the store (blobs already stored are content-addressed and stay valid).
    index.setMeta('identity', JSON.stringify(identity));
    return;
  }
  throw new HindsightError(
    'FOLDER_REPLACED',
    `The folder at ${root} is not the one whose history is stored: it was deleted or replaced. Its old history is kept apart and untouched.`,
    { root },
  );
}
