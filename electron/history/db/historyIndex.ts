import type Database from 'better-sqlite3';
import type { SnapshotEffect, SnapshotInfo } from '../../../shared/history.js';
import { BlobIndex } from './blobIndex.js';
import { BundleIndex } from './bundleIndex.js';
import { CompactIndex } from './compactIndex.js';
import { CommitThread } from './commitThread.js';
import { anyPruned, commitSnapshot, type BlobPresent, type SnapshotWrite } from './commitSnapshot.js';
import { snapshotEffect } from './snapshotEffect.js';
import * as stagedBaseline from './stagedBaseline.js';
import type { BaselinePublish } from './stagedBaseline.js';
import { StagedBaselineIndex } from './stagedBaselineIndex.js';
import { DamageIndex } from './damageIndex.js';
import { DensityIndex } from './densityIndex.js';
import { FileIndex } from './fileIndex.js';
import { FolderModeIndex } from './folderModeIndex.js';
import { RenameIndex } from './renameIndex.js';
import { RemoteIndex } from './remoteIndex.js';
import { closeConnection, openConnection } from './openConnection.js';
import { PinIndex } from './pinIndex.js';
import { PruneIndex } from './pruneIndex.js';
import { SnapshotIndex } from './snapshotIndex.js';
import { Sql } from './sql.js';
import { SpellingIndex } from './spellingIndex.js';
import { StatCacheIndex } from './statCacheIndex.js';
import { TextSearchIndex } from './textSearchIndex.js';
import { TwinIndex } from './twinIndex.js';
import { VersionIndex } from './versionIndex.js';

export type { NewBlob, NewOrigin, NewSnapshot, NewVersion } from './commitSnapshot.js';
export type { StatRow } from './statCache.js';
export type { BaselinePublish, StagedBatch, StagedBlob, StagedFile } from './stagedBaseline.js';
export type { LatestVersion } from './versionQueries.js';
export type { BlobTextState, IndexedBlob, SearchIndexTotals } from './searchIndex.js';
export type { ImportedRows, LineRowOut, SnapshotRowOut, VersionRowOut } from './bundleRows.js';

// history.db: the index of one project's history, and the only holder of its SQLite connection.
// Every query lives in db/ (one file per concept); other code asks this class, or one of the
// per-concept query objects it holds as readonly properties (versions, files, prune, damage, ...),
// which share its connection. It names a blob only after the blob is in place on disk, and every
// multi-row write is one transaction. Adding a query: write it in the file of its concept, taking
// a Sql, and expose it on that concept's query object; this class keeps only the connection, the
// meta table and the writes that announce a snapshot, never a delegation to a concept's object.

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
  readonly snapshotReads: SnapshotIndex;
  readonly files: FileIndex;
  readonly versions: VersionIndex;
  readonly pinning: PinIndex;
  readonly staged: StagedBaselineIndex;
  readonly prune: PruneIndex;
  readonly compaction: CompactIndex;
  readonly damage: DamageIndex;
  readonly blobRecords: BlobIndex;
  readonly folderModes: FolderModeIndex;
  readonly statCache: StatCacheIndex;
  readonly renames: RenameIndex;
  readonly density: DensityIndex;
  readonly search: TextSearchIndex;
  readonly remotes: RemoteIndex;
  readonly bundles: BundleIndex;
  readonly spellings: SpellingIndex;
  readonly twins: TwinIndex;

  constructor(
    readonly file: string,
    options: HistoryIndexOptions = {},
  ) {
    this.#db = openConnection(file, options.expectHistory ?? false);
    this.#sql = new Sql(this.#db, file);
    this.#onSnapshot = options.onSnapshot;
    this.#blobPresent = options.blobPresent ?? (() => true);
    this.snapshotReads = new SnapshotIndex(this.#sql);
    this.files = new FileIndex(this.#sql);
    this.versions = new VersionIndex(this.#sql);
    this.pinning = new PinIndex(this.#sql);
    this.staged = new StagedBaselineIndex(this.#sql);
    this.prune = new PruneIndex(this.#sql);
    this.compaction = new CompactIndex(this.#sql);
    this.damage = new DamageIndex(this.#sql);
    this.blobRecords = new BlobIndex(this.#sql);
    this.folderModes = new FolderModeIndex(this.#sql);
    this.statCache = new StatCacheIndex(this.#sql);
    this.renames = new RenameIndex(this.#sql);
    this.density = new DensityIndex(this.#sql);
    this.search = new TextSearchIndex(this.#sql);
    this.remotes = new RemoteIndex(this.#sql);
    this.bundles = new BundleIndex(this.#sql, this.#blobPresent, this.#onSnapshot);
    this.spellings = new SpellingIndex(this.#sql);
    this.twins = new TwinIndex(this.#sql);
  }

  get open(): boolean {
    return this.#db.open;
  }

  close(): void {
    closeConnection(this.#db, this.file);
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

  // --- writing (commitSnapshot.ts)

  /** Writes a snapshot with its versions, the blobs they name and the stat rows, all or nothing; returns its id. */
  commitSnapshot(write: SnapshotWrite): number {
    const committed = commitSnapshot(this.#sql, write, this.contextFor(write.snapshot), this.#blobPresent);
    this.announce(committed, snapshotEffect(write));
    return committed.snapshotId;
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

  /** The provider's answer; a provider that fails leaves the snapshot without git context, never unwritten. */
  private contextNow(): { branch: string | null; head: string | null } | undefined {
    try {
      return this.#snapshotContext?.();
    } catch {
      return undefined;
    }
  }
}
