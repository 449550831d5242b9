import Database from 'better-sqlite3';
import type { DeletedFile, FolderLevel, Pins } from '../../../shared/contract/values.js';
import type { DensityBucket, GrowthPoint } from '../../../shared/contract/timeDensity.js';
import type { FileEntry, SnapshotChange, SnapshotEffect, SnapshotInfo, VersionInfo } from '../../../shared/history.js';
import * as blobQueries from './blobQueries.js';
import * as bundleRows from './bundleRows.js';
import * as compactQueries from './compactQueries.js';
import * as changeDensity from './changeDensity.js';
import { CommitThread } from './commitThread.js';
import { anyPruned, commitSnapshot, type BlobPresent, type SnapshotWrite } from './commitSnapshot.js';
import { snapshotEffect } from './snapshotEffect.js';
import * as stagedBaseline from './stagedBaseline.js';
import type { BaselinePublish, StagedBatch } from './stagedBaseline.js';
import * as damagedBlobs from './damagedBlobs.js';
import { folderLevel, summarizedDeletedFiles } from './folderLevel.js';
import * as emptyFolders from './emptyFolders.js';
import * as filePages from './filePages.js';
import * as folderModes from './folderModes.js';
import * as renames from './renames.js';
import * as lineQueries from './lineQueries.js';
import * as lines from './lines.js';
import * as remoteLedgerQueries from './remoteLedgerQueries.js';
import type { RemoteLinkState } from './remoteLedgerQueries.js';
import type { RecordedSnapshot } from '../remote/layout/recordFormat.js';
import type { RemoteLedger } from './remoteLedger.js';
import { migrate } from './migrations.js';
import * as pins from './pins.js';
import * as pruneQueries from './pruneQueries.js';
import { assertKnownSchema, refuseNewerStore } from './schemaVersion.js';
import * as searchIndex from './searchIndex.js';
import * as snapshotQueries from './snapshotQueries.js';
import { Sql } from './sql.js';
import type { WriteGate } from './writeGate.js';
import { assertIndexFile, quickCheck, useWal } from './indexFile.js';
import { noteCleanClose } from './checkedStamp.js';
import { indexError } from './sqliteErrors.js';
import { importedThrough } from './importedThrough.js';
import * as statCache from './statCache.js';
import type { StatTable } from '../statTable.js';
import * as versionQueries from './versionQueries.js';

export type { NewBlob, NewOrigin, NewSnapshot, NewVersion } from './commitSnapshot.js';
export type { StatRow } from './statCache.js';
export type { BaselinePublish, StagedBatch, StagedBlob, StagedFile } from './stagedBaseline.js';
export type { LatestVersion } from './versionQueries.js';
export type { BlobTextState, IndexedBlob, SearchIndexTotals } from './searchIndex.js';
export type { ImportedRows, LineRowOut, SnapshotRowOut, VersionRowOut } from './bundleRows.js';

// history.db: the index of one project's history, and the only holder of its SQLite connection.
// Every query lives in db/ (one file per concept, listed below); other code asks this class. It
// names a blob only after the blob is in place on disk, and every multi-row write is one
// transaction. Adding a query: write it in the file of its concept, taking a Sql, and expose it
// here with a one-line method.

export type GitContextNow = () => { branch: string | null; head: string | null };

export interface HistoryIndexOptions {
  /** The store holds blobs or a backup: an empty history.db is then a lost index, not a new one. */
  expectHistory?: boolean;
  /** Told every snapshot the moment its transaction commits: the one source of "a snapshot was recorded". */
  onSnapshot?: (snapshot: SnapshotInfo, effect?: SnapshotEffect) => void;
  /** Whether a blob's file is in place (asked only of a blob a prune collected); default: assume it is. */
  blobPresent?: BlobPresent;
}

export class HistoryIndex {
  readonly #db: Database.Database;
  readonly #sql: Sql;
  #snapshotContext: GitContextNow | undefined;
  readonly #onSnapshot: ((snapshot: SnapshotInfo, effect?: SnapshotEffect) => void) | undefined;
  readonly #blobPresent: BlobPresent;

  constructor(
    readonly file: string,
    options: HistoryIndexOptions = {},
  ) {
    // Refused before the file is opened for writing: one that is not a database (empty with a
    // history beside it, garbage) is never replaced, and a newer store is never touched.
    assertIndexFile(file, options.expectHistory ?? false);
    refuseNewerStore(file);
    try {
      this.#db = new Database(file);
    } catch (error) {
      throw indexError(error, file);
    }
    try {
      // First: another process may be opening the same history right now (switching it to WAL,
      // migrating it); wait for its locks rather than fail.
      this.#db.pragma('busy_timeout = 5000');
      assertKnownSchema(this.#db, file);
      useWal(this.#db);
      this.#db.pragma('synchronous = NORMAL');
      this.#db.pragma('foreign_keys = ON');
      quickCheck(this.#db, file);
      migrate(this.#db);
    } catch (error) {
      this.#db.close();
      throw indexError(error, file);
    }
    this.#sql = new Sql(this.#db, file);
    this.#onSnapshot = options.onSnapshot;
    this.#blobPresent = options.blobPresent ?? (() => true);
  }

  get open(): boolean {
    return this.#db.open;
  }

  close(): void {
    if (!this.#db.open) return;
    this.#db.close();
    noteCleanClose(this.file);
  }

  getMeta(key: string): string | undefined {
    return this.#sql.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', key)?.value;
  }

  setMeta(key: string, value: string): void {
    this.#sql.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', key, value);
  }

  /** Where a snapshot's branch and head come from when its writer gave none (the store's git). */
  setSnapshotContext(provider: GitContextNow): void {
    this.#snapshotContext = provider;
  }

  // --- writing (commitSnapshot.ts, statCache.ts)

  /** Writes a snapshot with its versions, the blobs they name and the stat rows, all or nothing; returns its id. */
  commitSnapshot(write: SnapshotWrite): number {
    const committed = commitSnapshot(this.#sql, write, this.contextFor(write.snapshot), this.#blobPresent);
    this.announce(committed, snapshotEffect(write));
    return committed.snapshotId;
  }

  /** One batch of a first copy's baseline, written where no reader looks (stagedBaseline.ts). */
  stageBaseline(batch: StagedBatch): void {
    stagedBaseline.stageBatch(this.#sql, batch);
  }

  /** Forgets the rows a first copy staged and did not publish; answers how many files were staged. */
  clearStagedBaseline(): number {
    return stagedBaseline.clearStaged(this.#sql);
  }

  /** How many files a first copy has staged and not yet published. */
  stagedBaselineFiles(): number {
    return stagedBaseline.stagedFiles(this.#sql);
  }

  /** Makes the staged rows the baseline, in one transaction, and announces it; returns its id. */
  publishBaseline(publish: BaselinePublish): number {
    const { committed, effect } = this.#sql.immediate(() =>
      stagedBaseline.publishBaseline(this.#sql, publish, this.contextFor(publish.snapshot), this.#blobPresent),
    );
    this.announce(committed, effect);
    return committed.snapshotId;
  }

  /** The branch and head a snapshot's writer left out, from the store's git (commitThread.ts commits elsewhere with them). */
  contextFor(snapshot: SnapshotWrite['snapshot']): { branch: string | null; head: string | null } | undefined {
    return snapshot.branch === undefined && snapshot.head === undefined ? this.contextNow() : undefined;
  }

  /** Tells the snapshot listener of a snapshot committed, here or by this process's commit thread. */
  announce(committed: SnapshotInfo, effect: SnapshotEffect | undefined): void {
    try {
      this.#onSnapshot?.(committed, effect);
    } catch {
      // A listener's failure is its own: the snapshot is written and stays written.
    }
  }

  /** A thread to commit one large snapshot of this index on (commitThread.ts); the caller closes it. */
  commitThread(): CommitThread {
    return new CommitThread(this);
  }

  /** Whether a prune marked or collected any blob (a commit elsewhere could not look at their files). */
  anyPruned(): boolean {
    return anyPruned(this.#sql);
  }

  /** Snapshots brought in from a remote, all or none, in order; returns their ids. */
  importSnapshots(writes: readonly SnapshotWrite[]): number[] {
    return this.#sql.transaction(() => writes.map((write) => this.commitSnapshot(write)));
  }

  /**
   * Another machine's snapshots brought in by a pull, with `note` (what the ledger learns by it),
   * all or none: a pull killed midway imports each record whole or not at all.
   */
  importForeign(writes: readonly SnapshotWrite[], note: () => void): number[] {
    return this.#sql.transaction(() => {
      const ids = writes.map((write) => this.commitSnapshot(write));
      note();
      return ids;
    });
  }

  /** The ids (on that machine) of the snapshots already brought in from a machine. */
  importedOrigins(machine: string): Set<number> {
    return new Set(this.#sql.rows<[number]>('SELECT machine_snapshot FROM snapshots WHERE machine = ?', machine).map(([origin]) => origin));
  }

  writeStats(stats: readonly statCache.StatRow[], removed: readonly string[] = []): void {
    statCache.writeStats(this.#sql, stats, removed);
  }

  /** The whole stat cache, in the compact form a rescan compares with (one query). */
  statTable(): StatTable {
    return statCache.statTable(this.#sql);
  }

  /** One path's stat cache row, with the hash it was recorded with. */
  cachedStat(path: string): statCache.StatRow | undefined {
    return statCache.cachedStat(this.#sql, path);
  }

  trackedFiles(): number {
    return statCache.trackedFiles(this.#sql);
  }

  /** Paths of this machine's line, in versions newer than `afterVersion`, without a stat row (statCache.ts). */
  uncachedPaths(afterVersion: number): string[] {
    return statCache.uncachedPaths(this.#sql, afterVersion);
  }

  newestVersionId(): number {
    return statCache.newestVersionId(this.#sql);
  }

  // --- snapshots (snapshotQueries.ts)

  snapshots(): SnapshotInfo[] {
    return snapshotQueries.snapshots(this.#sql);
  }

  /** Every snapshot, oldest first, a page at a time. */
  snapshotPages(): Iterable<SnapshotInfo[]> {
    return snapshotQueries.snapshotPages(this.#sql);
  }

  snapshot(id: number): SnapshotInfo | undefined {
    return snapshotQueries.snapshot(this.#sql, id);
  }

  baselineId(): number | undefined {
    return snapshotQueries.baselineId(this.#sql);
  }

  /** The newest snapshot of this machine's line (pulled snapshots of other machines may have larger ids). */
  latestSnapshotId(): number | undefined {
    return snapshotQueries.latestSnapshotId(this.#sql);
  }

  /** The largest snapshot id of any line. */
  lastSnapshotId(): number | undefined {
    return snapshotQueries.lastSnapshotId(this.#sql);
  }

  previousMark(snapshotId: number): { id: number; kind: 'baseline' | 'checkpoint' } | undefined {
    return snapshotQueries.previousMark(this.#sql, snapshotId);
  }

  filesPresentAt(snapshotId: number): number {
    return snapshotQueries.filesPresentAt(this.#sql, snapshotId);
  }

  /** How many files the folder holds as recorded on this machine's line, and their bytes, without reading their rows. */
  ownFileTotals(): { files: number; bytes: number } {
    return snapshotQueries.ownFileTotals(this.#sql);
  }

  pathsChangedBetween(after: number, upTo: number): number {
    return snapshotQueries.pathsChangedBetween(this.#sql, after, upTo);
  }

  previousSnapshotId(snapshotId: number): number | undefined {
    return snapshotQueries.previousSnapshotId(this.#sql, snapshotId);
  }

  latestSnapshotContext(): { snapshotId: number; branch: string | null; head: string | null } | undefined {
    return snapshotQueries.latestSnapshotContext(this.#sql);
  }

  // --- versions (versionQueries.ts)

  /**
   * Every file as it stands at a snapshot, on that snapshot's line (default: as this machine's
   * line has it now, what the folder holds), sorted by path.
   */
  /** The deepest folders of a snapshot (default: the latest of this machine's line) with no file under them (emptyFolders.ts). */
  emptyFoldersAt(snapshotId?: number, files?: readonly FileEntry[]): string[] {
    const at = snapshotId ?? this.latestSnapshotId();
    if (at === undefined) return [];
    return emptyFolders.emptyFoldersAt(this.#sql, at, () => (files ? files.map((f) => f.path) : this.#pathsAt(at)));
  }

  *#pathsAt(snapshotId: number): Generator<string> {
    for (const page of this.filePages(snapshotId)) for (const file of page) yield file.path;
  }

  filesAt(snapshotId?: number): FileEntry[] {
    return snapshotId === undefined ? versionQueries.ownFiles(this.#sql) : versionQueries.filesAt(this.#sql, snapshotId);
  }

  /** The files of filesAt, a page at a time in path order (filePages.ts): what a long listing streams. */
  filePages(snapshotId?: number): Iterable<FileEntry[]> {
    return snapshotId === undefined ? filePages.ownFilePages(this.#sql) : filePages.filePagesAt(this.#sql, snapshotId);
  }

  /**
   * One folder's direct children at a snapshot, on that snapshot's line (default: as this
   * machine's line has it now), in tree order, marked against the baseline.
   */
  folderLevel(folder: string, snapshotId?: number): FolderLevel {
    return folderLevel(this.#sql, folder, snapshotId, this.baselineId());
  }

  /** The renames a snapshot recorded (renames.ts). */
  renamesIn(snapshotId: number): { path: string; fromPath: string }[] {
    return renames.renamesIn(this.#sql, snapshotId);
  }

  /** The snapshots holding a rename, oldest first (renames.ts). */
  snapshotsWithRenames(): number[] {
    return renames.snapshotsWithRenames(this.#sql);
  }

  /** A snapshot's renames replaced by these, in one transaction (renames.ts). */
  replaceRenames(snapshotId: number, links: readonly { path: string; fromPath: string }[]): void {
    renames.replaceRenames(this.#sql, snapshotId, links);
  }

  /** Every version of one path, of every line, oldest first. */
  /** Whether a version is part of a path's history, through the renames that brought the file there (renames.ts). */
  inLineage(path: string, version: { path: string; snapshotId: number }): boolean {
    return renames.inLineage(this.#sql, path, version);
  }

  versionsOf(path: string): VersionInfo[] {
    return versionQueries.versionsOf(this.#sql, path);
  }

  /** The versions of one path on this machine's line, oldest first. */
  ownVersionsOf(path: string): VersionInfo[] {
    return versionQueries.ownVersionsOf(this.#sql, path);
  }

  /** The newest `limit` versions of a path older than snapshot `before`, oldest first. */
  versionsPage(path: string, before: number | undefined, limit: number): VersionInfo[] {
    return versionQueries.versionsPage(this.#sql, path, before, limit);
  }

  version(versionId: number): VersionInfo | undefined {
    return versionQueries.version(this.#sql, versionId);
  }

  latestVersion(path: string): VersionInfo | undefined {
    return versionQueries.latestVersion(this.#sql, path);
  }

  /** The version of a path just before a snapshot. */
  versionBefore(path: string, snapshotId: number): VersionInfo | undefined {
    return versionQueries.versionBefore(this.#sql, path, snapshotId);
  }

  /** The id of the version a path had as of a snapshot. */
  versionIdAt(path: string, snapshotId: number): number | undefined {
    return versionQueries.versionIdAt(this.#sql, path, snapshotId);
  }

  /** The latest version of a path that has contents. */
  latestContents(path: string): VersionInfo | undefined {
    return versionQueries.latestContents(this.#sql, path);
  }

  /** The fields a change group compares with (one cached statement: a mass change asks thousands of times). */
  latestVersionOf(path: string): versionQueries.LatestVersion | undefined {
    return versionQueries.latestVersionOf(this.#sql, path);
  }

  deletedFiles(): DeletedFile[] {
    return summarizedDeletedFiles(this.#sql, this.baselineId()) ?? versionQueries.deletedFiles(this.#sql);
  }

  snapshotChanges(snapshotId: number): SnapshotChange[] {
    return versionQueries.snapshotChanges(this.#sql, snapshotId);
  }

  versionsNaming(hash: string): { versionId: number; snapshotId: number; path: string }[] {
    return versionQueries.versionsNaming(this.#sql, hash);
  }

  // --- pins (pins.ts)

  pins(): Pins {
    return pins.pins(this.#sql);
  }

  setSnapshotPin(snapshotId: number, pinned: boolean, at = Date.now()): boolean {
    return pins.setSnapshotPin(this.#sql, snapshotId, pinned, at);
  }

  setVersionPin(versionId: number, pinned: boolean, at = Date.now()): boolean {
    return pins.setVersionPin(this.#sql, versionId, pinned, at);
  }

  // --- pruning (pruneQueries.ts)

  pruneRows(): pruneQueries.PruneRows {
    return pruneQueries.pruneRows(this.#sql);
  }

  pruneFingerprint(): string {
    return pruneQueries.pruneFingerprint(this.#sql);
  }

  /**
   * Applies one chunk of a prune's plan in one transaction holding the write lock, when the
   * history is still the one planned from (`fingerprint`); else writes nothing and answers
   * undefined. `beforeCommit` runs last inside the transaction (a fault-injection point). Answers
   * the blobs marked and the fingerprint the chunk leaves (the next chunk's to check).
   */
  applyPruneChunk(
    fingerprint: string,
    chunk: pruneQueries.PruneWrite,
    now: number,
    beforeCommit?: () => void,
  ): { marked: number; fingerprint: string } | undefined {
    return this.#sql.immediate(() => {
      if (pruneQueries.pruneFingerprint(this.#sql) !== fingerprint) return undefined;
      const marked = pruneQueries.applyPrune(this.#sql, chunk, now);
      beforeCommit?.();
      return { marked, fingerprint: pruneQueries.pruneFingerprint(this.#sql) };
    });
  }

  /** One batch of marked blobs past `before` collected in one transaction (their files deleted by `unlink` inside it). */
  collectMarked(before: number, now: number, limit: number, unlink: (hash: string) => void): { looked: number; blobs: number; bytes: number } {
    return this.#sql.immediate(() => {
      const hashes = pruneQueries.expiredMarks(this.#sql, before, now, limit);
      let blobs = 0;
      let bytes = 0;
      for (const hash of hashes) {
        const freed = pruneQueries.collectBlob(this.#sql, hash, now, unlink);
        if (freed === undefined) continue;
        blobs++;
        bytes += freed;
      }
      return { looked: hashes.length, blobs, bytes };
    });
  }

  dropTombstones(before: number): void {
    pruneQueries.dropTombstones(this.#sql, before);
  }

  markedBlobs(): { blobs: number; bytes: number } {
    return pruneQueries.markedBlobs(this.#sql);
  }

  spaceHolders(limit: number): { path: string; versions: number; bytes: number }[] {
    return pruneQueries.spaceHolders(this.#sql, limit);
  }

  gitOids(hashes: readonly string[]): Map<string, string> {
    return pruneQueries.gitOids(this.#sql, hashes);
  }

  rememberGitOids(pairs: readonly { hash: string; oid: string }[]): void {
    pruneQueries.rememberGitOids(this.#sql, pairs);
  }

  /** Gives free pages back to the file system: all of them (VACUUM) when most pages are free, else what incremental vacuum can. */
  reclaimSpace(): void {
    const pages = this.#sql.pragma('page_count') as number;
    const free = this.#sql.pragma('freelist_count') as number;
    if (free === 0) return;
    if (free * 2 > pages) {
      // Switching to incremental takes a VACUUM; after it, later prunes give pages back cheaply.
      this.#sql.pragma('auto_vacuum = INCREMENTAL');
      this.#sql.exec('VACUUM');
    } else if (this.#sql.pragma('auto_vacuum') === 2) {
      this.#sql.pragma('incremental_vacuum');
    }
  }

  // --- blobs found missing or damaged (damagedBlobs.ts)

  markDamaged(hash: string, problem: damagedBlobs.BlobDamage): void {
    damagedBlobs.markDamaged(this.#sql, hash, problem, Date.now());
  }

  /** Hashes whose blob must not be trusted until its bytes are filed again. */
  damagedHashes(): string[] {
    return damagedBlobs.damagedHashes(this.#sql);
  }

  /** Forgets the marks of blobs now good; the search index reads again those it found unreadable. */
  clearDamaged(hashes: readonly string[]): number {
    if (hashes.length === 0) return 0;
    return this.#sql.transaction(() => {
      for (const hash of hashes) {
        if (searchIndex.blobTextState(this.#sql, hash) === 'unreadable') searchIndex.unindexBlob(this.#sql, hash);
      }
      return damagedBlobs.clearDamaged(this.#sql, hashes);
    });
  }

  /** Paths that held, or were recorded with, the bytes of a damaged blob. */
  repairCandidates(): { path: string; hash: string; size: number }[] {
    return damagedBlobs.repairCandidates(this.#sql);
  }

  // --- folder modes (folderModes.ts)

  /** A folder's recorded mode as of a snapshot; undefined when it was never recorded by then. */
  folderModeAt(snapshotId: number, path: string): number | undefined {
    return folderModes.folderModeAt(this.#sql, snapshotId, path);
  }

  /** folderModeAt with the snapshot that recorded the mode. */
  folderModeRowAt(snapshotId: number, path: string): { mode: number; snapshotId: number } | undefined {
    return folderModes.folderModeRowAt(this.#sql, snapshotId, path);
  }

  /** The highest snapshot id a bundle import wrote onto this machine's line (db/importedThrough.ts); 0: none. */
  importedThrough(): number {
    return importedThrough(this.#sql);
  }

  /** Records the folders whose mode is new or changed, at a snapshot. */
  folderChanges(seen: ReadonlyMap<string, number>, complete: boolean): { added: string[]; gone: string[] } {
    return folderModes.folderChanges(this.#sql, seen, complete);
  }

  /** `complete`: the walk saw every folder, so one recorded present that it did not see is gone. */
  recordFolderModes(snapshotId: number, seen: ReadonlyMap<string, number>, complete = false): number {
    return folderModes.recordFolderModes(this.#sql, snapshotId, seen, complete);
  }

  // --- blobs and totals (blobQueries.ts)

  blobs(): { hash: string; size: number }[] {
    return blobQueries.blobs(this.#sql);
  }

  /** Blobs a writer may take as stored without looking at the disk (neither marked for collection nor damaged). */
  trustedHashes(): string[] {
    return blobQueries.trustedHashes(this.#sql);
  }

  /** Records the bytes on disk of blobs placed outside a snapshot's commit (a repair from the folder). */
  recordStoredSizes(sizes: readonly { hash: string; stored: number }[]): void {
    this.#sql.transaction(() => {
      for (const { hash, stored } of sizes) blobQueries.recordStoredSize(this.#sql, hash, stored);
    });
  }

  blobTotals(): blobQueries.BlobTotals {
    return blobQueries.blobTotals(this.#sql);
  }

  // --- compaction (compactQueries.ts)

  compactCandidates(range: compactQueries.CompressRange, after: string, limit: number): { hash: string; size: number }[] {
    return compactQueries.compactCandidates(this.#sql, range, after, limit);
  }

  compactTotals(range: compactQueries.CompressRange): { blobs: number; bytes: number } {
    return compactQueries.compactTotals(this.#sql, range);
  }

  settleCompaction(hashes: readonly string[], settle: (hash: string) => compactQueries.CompactSettled | undefined): string[] {
    return compactQueries.settleCompaction(this.#sql, hashes, settle);
  }

  historyTotals(): blobQueries.HistoryTotals {
    return blobQueries.historyTotals(this.#sql);
  }

  // --- how much changed per hour or day, and the store's size over time (changeDensity.ts)

  snapshotDensity(offsetMs: number): changeDensity.Counted<DensityBucket> {
    return changeDensity.snapshotDensity(this.#sql, offsetMs);
  }

  pathDensity(path: string, offsetMs: number): changeDensity.Counted<DensityBucket> {
    return changeDensity.pathDensity(this.#sql, path, offsetMs);
  }

  storeGrowth(offsetMs: number): changeDensity.Counted<GrowthPoint> {
    return changeDensity.storeGrowth(this.#sql, offsetMs);
  }

  blobSize(hash: string): number | undefined {
    return blobQueries.blobSize(this.#sql, hash);
  }

  // --- remotes (lineQueries.ts, remoteLedgerQueries.ts)

  /** This machine's snapshots after `after`, with their versions, oldest first (what a push sends). */
  ownSnapshotsAfter(after: number): RecordedSnapshot[] {
    return lineQueries.ownSnapshotsAfter(this.#sql, after);
  }

  /** Where a machine's line starts (null: this machine's): the snapshot, by machine and id there, it was cloned from. */
  setLineFork(machine: string | null, fork: { machine: string; origin: number } | null, ownMachine: string): void {
    lines.setFork(this.#sql, machine, fork, ownMachine);
  }

  countOwnSnapshotsAfter(after: number): number {
    return lineQueries.countOwnSnapshotsAfter(this.#sql, after);
  }

  /** What this history sent to one remote (keyed by remoteIdentity), made on first use. */
  remoteLedger(remote: string, ids: { projectId: string; machineId: string }): RemoteLedger {
    return remoteLedgerQueries.remoteLedger(this.#sql, remote, ids);
  }

  noteRemoteError(remote: string, message: string): void {
    remoteLedgerQueries.noteRemoteError(this.#sql, remote, message);
  }

  remoteLinkStates(): RemoteLinkState[] {
    return remoteLedgerQueries.remoteLinkStates(this.#sql);
  }

  // --- the search index (searchIndex.ts)

  unindexedBlobs(after: string, maxSize: number, limit: number): { hash: string; size: number }[] {
    return searchIndex.unindexedBlobs(this.#sql, after, maxSize, limit);
  }

  /** One batch of the index build, in one transaction (searchIndex.recordIndexed). */
  recordIndexed(batch: readonly searchIndex.IndexedBlob[], stop?: () => boolean): { recorded: number; added: number } {
    return searchIndex.recordIndexed(this.#sql, batch, stop);
  }

  /**
   * While a search index build writes to this history from a worker thread, this connection's
   * transactions take turns with it through `gate` (writeGate.ts); undefined when it stopped.
   */
  shareWrites(gate: WriteGate | undefined): void {
    this.#sql.gate = gate;
  }

  /** Takes a blob out of the search index: call it inside the transaction that stops naming the blob. */
  unindexBlob(hash: string): void {
    searchIndex.unindexBlob(this.#sql, hash);
  }

  blobsContaining(literal: string): string[] {
    return searchIndex.blobsContaining(this.#sql, literal);
  }

  blobTextState(hash: string): searchIndex.BlobTextState | undefined {
    return searchIndex.blobTextState(this.#sql, hash);
  }

  searchProgress(maxSize: number): { indexedBlobs: number; totalBlobs: number } {
    return searchIndex.searchProgress(this.#sql, maxSize);
  }

  searchIndexTotals(maxSize: number): searchIndex.SearchIndexTotals {
    return searchIndex.searchIndexTotals(this.#sql, maxSize);
  }

  // --- bundles (bundleRows.ts)

  snapshotsBetween(since: number, last: number): bundleRows.SnapshotRowOut[] {
    return bundleRows.snapshotsBetween(this.#sql, since, last);
  }

  versionPage(since: number, last: number, from: [number, number], limit: number): bundleRows.VersionRowOut[] {
    return bundleRows.versionPage(this.#sql, since, last, from, limit);
  }

  folderModesBetween(since: number, last: number): [string, number, number][] {
    return bundleRows.folderModesBetween(this.#sql, since, last);
  }

  pinsBetween(since: number, last: number): bundleRows.PinRows {
    return bundleRows.pinsBetween(this.#sql, since, last);
  }

  blobsBetween(since: number, last: number): { hash: string; size: number; held: number }[] {
    return bundleRows.blobsBetween(this.#sql, since, last);
  }

  /** Writes an import's rows in one transaction, then announces each snapshot it added (like commitSnapshot). */
  /** The lines of history a bundle carries (bundleRows.ts). */
  linesOut(): bundleRows.LineRowOut[] {
    return bundleRows.linesOut(this.#sql);
  }

  importRows(rows: bundleRows.ImportedRows): SnapshotInfo[] {
    const written = bundleRows.writeImportedRows(this.#sql, rows, this.#blobPresent);
    for (const snapshot of written) {
      try {
        this.#onSnapshot?.(snapshot);
      } catch {
        // A listener's failure is its own: the rows are written and stay written.
      }
    }
    return written;
  }

  /** The provider's answer; a provider that fails leaves the snapshot without git context, never unwritten. */
  private contextNow(): { branch: string | null; head: string | null } | undefined {
    try {
      return this.#snapshotContext?.();
    } catch {
      return undefined;
    }
  }
}
