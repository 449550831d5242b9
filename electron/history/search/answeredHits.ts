import type { SearchHit, SearchMatch } from '../../../shared/contract/values.js';
import type { LatestOfPath } from '../db/searchHitRows.js';
import { HIT_BATCH } from '../db/searchHitRows.js';
import type { BlobScans } from './blobScans.js';
import type { SearchSource } from './blobScans.js';

// The hits a search answers, completed a batch at a time: each one's versions, and whether its
// file's latest version still holds the text, are asked for HIT_BATCH hits in one statement each
// (db/searchHitRows.ts) instead of a query or three per hit. The hits wait in the batch with their
// matches, which the answer holds anyway; each path's latest version is asked once per search.

interface Pending {
  path: string;
  hash: string;
  lastSeen: number;
  matches: SearchMatch[];
}

export class AnsweredHits {
  readonly results: SearchHit[] = [];
  #pending: Pending[] = [];
  readonly #latest = new Map<string, LatestOfPath | undefined>();

  constructor(
    private readonly source: SearchSource,
    private readonly scans: BlobScans,
    private readonly options: { since: number | undefined; maxSize: number; literal: string | undefined },
  ) {}

  /** Hits answered so far, completed or waiting. */
  get count(): number {
    return this.results.length + this.#pending.length;
  }

  add(path: string, hash: string, lastSeen: number, matches: SearchMatch[]): void {
    this.#pending.push({ path, hash, lastSeen, matches });
    if (this.#pending.length === HIT_BATCH) this.flush();
  }

  /** Completes the waiting hits, in the order they came. */
  flush(): void {
    const batch = this.#pending;
    if (batch.length === 0) return;
    this.#pending = [];
    const versions = this.source.index.groupsVersions(
      batch.map((hit) => [hit.path, hit.hash] as const),
      this.options.since,
    );
    const still = this.#stillPresent(batch);
    batch.forEach(({ path, lastSeen, matches }, k) => {
      const of = versions[k]!.map(([versionId, snapshotId, at]) => ({ versionId, snapshotId, at }));
      this.results.push({ path, versions: of, firstSeen: of[of.length - 1]!.at, lastSeen, stillPresent: still[k]!, matches });
    });
  }

  /**
   * Whether each hit's file's latest version still holds the text: false when it was deleted or
   * the text is gone from it. A latest blob the index has looked at and does not name for the
   * literal (an indexed search) cannot hold it, and is not read.
   */
  #stillPresent(batch: readonly Pending[]): boolean[] {
    const { maxSize, literal } = this.options;
    const unknown = [...new Set(batch.map((hit) => hit.path).filter((path) => !this.#latest.has(path)))];
    for (let from = 0; from < unknown.length; from += HIT_BATCH) {
      const paths = unknown.slice(from, from + HIT_BATCH);
      this.source.index.latestOfPaths(paths).forEach((latest, k) => this.#latest.set(paths[k]!, latest));
    }
    // The latest blobs to read or ask the index about: of another content, within the size limit.
    const latestOf = (hit: Pending) => {
      const latest = this.#latest.get(hit.path);
      return latest && latest[0] !== null && latest[2] === 'file' && latest[0] !== hit.hash && latest[1] <= maxSize ? latest : undefined;
    };
    const ask = [...new Set(batch.map((hit) => latestOf(hit)?.[0]).filter((hash): hash is string => hash != null && this.scans.holds(hash) === undefined))];
    const words = new Map(ask.length > 0 ? this.source.index.blobWords(ask, literal).map((word, k) => [ask[k]!, word]) : []);
    return batch.map((hit) => {
      const latest = this.#latest.get(hit.path);
      if (!latest || latest[0] === null || latest[2] !== 'file') return false;
      if (latest[0] === hit.hash) return true;
      const other = latestOf(hit);
      if (!other) return false;
      const [hash, size] = other as [string, number, unknown];
      const known = this.scans.holds(hash);
      if (known !== undefined) return known;
      const word = words.get(hash);
      if (word && word.state !== undefined && word.state !== 'text') return false;
      if (word?.state === 'text' && literal !== undefined && !word.named) return false;
      const matches = this.scans.of(hash, size, word?.state ?? null);
      return matches !== null && matches.length > 0;
    });
  }
}
