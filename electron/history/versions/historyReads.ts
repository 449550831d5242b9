import type { Readable } from 'node:stream';
import type { DiffInputs, FileBytes, FolderLevel } from '../../../shared/contract.js';
import { HindsightError } from '../../../shared/errors.js';
import type { DiskState, FileEntry, GitSource, LineSpanInfo, LineVersion, SnapshotChange, SnapshotSummary, VersionInfo } from '../../../shared/history.js';
import { requireSnapshot } from '../db/requireSnapshot.js';
import type { BytesOnDemand } from '../project/bytesOnDemand.js';
import type { ProjectStore } from '../project/projectStore.js';
import { diskState } from './diskState.js';
import { lineHistory } from './lineHistory.js';
import { assertProjectPath } from '../paths/safeTarget.js';
import { diffInputs, gitVersionStream, readVersion, versionStream, type DiffSide } from './versionBytes.js';

// What a history holds, as the engine's reading calls answer it: snapshots, their files and
// folders, a file's versions a page at a time, and their bytes (versionBytes.ts), those only a
// remote holds fetched first (a clone's older versions). A snapshot named that the history lacks
// is SNAPSHOT_NOT_FOUND, a version VERSION_NOT_FOUND. Nothing here writes; the engine checks a
// path it is given before it asks.

export class HistoryReads {
  constructor(private readonly bytesOnDemand: BytesOnDemand) {}

  /** What one snapshot changed, file by file, sorted by path. */
  snapshotChanges(store: ProjectStore, snapshotId: number): SnapshotChange[] {
    requireSnapshot(store.index, snapshotId);
    return store.index.versions.snapshotChanges(snapshotId);
  }

  /** What a snapshot holds: its files, and how many changed since the checkpoint or first copy before it. */
  snapshotSummary(store: ProjectStore, snapshotId: number): SnapshotSummary {
    requireSnapshot(store.index, snapshotId);
    const mark = store.index.snapshotReads.previousMark(snapshotId);
    return {
      snapshotId,
      files: store.index.snapshotReads.filesPresentAt(snapshotId),
      changedSince: mark ? store.index.snapshotReads.pathsChangedBetween(mark.id, snapshotId) : 0,
      since: mark ? { snapshotId: mark.id, kind: mark.kind } : null,
    };
  }

  /** Every file at a snapshot (default: now, as recorded). */
  files(store: ProjectStore, at: number | undefined): FileEntry[] {
    if (at !== undefined) requireSnapshot(store.index, at);
    return store.index.files.filesAt(at);
  }

  /** The files of files(), a page at a time in path order (the CLI's files streams them). */
  filePages(store: ProjectStore, at: number | undefined): Iterable<FileEntry[]> {
    if (at !== undefined) requireSnapshot(store.index, at);
    return store.index.files.filePages(at);
  }

  /** The empty folders of a snapshot (default: now, as recorded), with their recorded modes: part of it like its files. */
  emptyFolders(store: ProjectStore, at: number | undefined): { path: string; mode: number | null }[] {
    if (at !== undefined) requireSnapshot(store.index, at);
    const snapshotId = at ?? store.index.snapshotReads.latestSnapshotId();
    if (snapshotId === undefined) return [];
    return store.index.files.emptyFoldersAt(snapshotId).map((path) => ({ path, mode: store.index.folderModes.folderModeAt(snapshotId, path) ?? null }));
  }

  /** One level of the tree: a folder's direct children ('' = the root; a trailing '/' names the same folder). */
  folderLevel(store: ProjectStore, folder: string, at: number | undefined): FolderLevel {
    if (at !== undefined) requireSnapshot(store.index, at);
    return store.index.files.folderLevel(folder.endsWith('/') ? folder.slice(0, -1) : folder, at);
  }

  /**
   * A file's versions, oldest first; with a limit only the newest `limit` (older than the version
   * `before` when given), so a long history is read and sent a page at a time.
   */
  versions(store: ProjectStore, path: string, page: { limit?: number; before?: number }): VersionInfo[] {
    const { index } = store;
    if (page.limit === undefined && page.before === undefined) return index.versions.versionsOf(path);
    if (page.before === undefined) return index.versions.versionsPage(path, undefined, page.limit ?? Number.MAX_SAFE_INTEGER);
    const from = index.versions.version(page.before);
    if (!from || !index.renames.inLineage(path, from))
      throw new HindsightError('VERSION_NOT_FOUND', `No version ${page.before} of ${path}.`, { path, versionId: page.before });
    // A version from before a rename: the page goes on along the path it was recorded at.
    return index.versions.versionsPage(from.path, from.snapshotId, page.limit ?? Number.MAX_SAFE_INTEGER);
  }

  /** At most maxBytes of a version (default: the latest with contents). */
  async readVersion(store: ProjectStore, path: string, options: { versionId?: number; maxBytes: number }): Promise<FileBytes> {
    await this.bytesOnDemand(store, [versionHash(store, path, options.versionId)]);
    return readVersion(store, path, options.versionId, options.maxBytes);
  }

  async diffInputs(store: ProjectStore, path: string, before: DiffSide, after: DiffSide, maxBytes: number): Promise<DiffInputs> {
    // A side on disk or in git has no blob.
    await this.bytesOnDemand(
      store,
      [before, after].map((side) => (side.kind === 'version' ? store.index.versions.version(side.versionId)?.hash : undefined)),
    );
    return diffInputs(store, path, before, after, maxBytes);
  }

  /** The versions that changed lines of a file (lineHistory.ts), counted in version startId (default: the newest), oldest first. */
  async lineHistory(store: ProjectStore, path: string, lines: LineSpanInfo, startId: number | undefined): Promise<LineVersion[]> {
    assertProjectPath(path);
    const versions = store.index.versions.versionsOf(path);
    if (versions.length === 0) throw new HindsightError('NOT_FOUND', `${path} has no history.`, { path });
    await this.bytesOnDemand(store, () => versions.map((v) => v.hash));
    return lineHistory(store, versions, lines, startId);
  }

  /** The file on disk now and which of its versions it is identical to. */
  diskState(store: ProjectStore, path: string): Promise<DiskState> {
    return diskState(store, path);
  }

  /** Every byte of a version, streamed (the CLI's show). */
  async versionStream(store: ProjectStore, path: string, versionId: number | undefined): Promise<Readable> {
    await this.bytesOnDemand(store, [versionHash(store, path, versionId)]);
    return versionStream(store, path, versionId);
  }

  /** Every byte of git's HEAD or INDEX version of a file (the CLI's `show --version HEAD`). */
  gitVersionStream(store: ProjectStore, path: string, source: GitSource): Promise<Readable> {
    return gitVersionStream(store, path, source);
  }
}

/** The blob of a version (default: the latest with contents); absent for a link or an unknown version. */
function versionHash(store: ProjectStore, path: string, versionId: number | undefined): string | null | undefined {
  return versionId !== undefined ? store.index.versions.version(versionId)?.hash : store.index.versions.latestContents(path)?.hash;
}
