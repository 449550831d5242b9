import { ReadOnlyReader } from './readOnlyReader.js';
import { searchGroups, searchGroupVersions, type SearchGroupRow, type SearchGroupVersion, type SearchScope } from './searchGroups.js';
import { blobWords, groupsVersions, latestOfPaths, type BlobWord, type LatestOfPath } from './searchHitRows.js';
import * as searchIndex from './searchIndex.js';

// A search's reads from its own read-only connection (the search's worker thread opens one, on a
// history the history process has opened and migrated): the groups in the order the answer shows
// them, the versions of those it lists, each path's latest version, the index's word on a blob
// (the last three for a batch of hits at once: searchHitRows.ts). WAL lets it read while the
// history process's connection writes.

export interface SearchReads {
  searchProgress(maxSize: number): { indexedBlobs: number; totalBlobs: number };
  searchGroups(scope: SearchScope, since: number | undefined): Iterable<SearchGroupRow>;
  searchGroupVersions(path: string, hash: string, since: number | undefined): SearchGroupVersion[];
  groupsVersions(groups: readonly (readonly [string, string])[], since: number | undefined): SearchGroupVersion[][];
  latestOfPaths(paths: readonly string[]): (LatestOfPath | undefined)[];
  blobWords(hashes: readonly string[], literal: string | undefined): BlobWord[];
}

export class SearchReader extends ReadOnlyReader implements SearchReads {
  searchProgress(maxSize: number): { indexedBlobs: number; totalBlobs: number } {
    return searchIndex.searchProgress(this.sql, maxSize);
  }

  searchGroups(scope: SearchScope, since: number | undefined): Iterable<SearchGroupRow> {
    return searchGroups(this.sql, scope, since);
  }

  searchGroupVersions(path: string, hash: string, since: number | undefined): SearchGroupVersion[] {
    return searchGroupVersions(this.sql, path, hash, since);
  }

  groupsVersions(groups: readonly (readonly [string, string])[], since: number | undefined): SearchGroupVersion[][] {
    return groupsVersions(this.sql, groups, since);
  }

  latestOfPaths(paths: readonly string[]): (LatestOfPath | undefined)[] {
    return latestOfPaths(this.sql, paths);
  }

  blobWords(hashes: readonly string[], literal: string | undefined): BlobWord[] {
    return blobWords(this.sql, hashes, literal);
  }
}
