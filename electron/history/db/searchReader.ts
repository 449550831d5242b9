import type { VersionInfo } from '../../../shared/history.js';
import { ReadOnlyReader } from './readOnlyReader.js';
import { indexNames, searchGroups, searchGroupVersions, type SearchGroupRow, type SearchGroupVersion, type SearchScope } from './searchGroups.js';
import * as searchIndex from './searchIndex.js';
import { latestVersion } from './versionQueries.js';

// A search's reads from its own read-only connection (the search's worker thread opens one, on a
// history the history process has opened and migrated): the groups in the order the answer shows
// them, the versions of those it lists, each path's latest version. WAL lets it read while the
// history process's connection writes.

export interface SearchReads {
  searchProgress(maxSize: number): { indexedBlobs: number; totalBlobs: number };
  searchGroups(scope: SearchScope, since: number | undefined): Iterable<SearchGroupRow>;
  searchGroupVersions(path: string, hash: string, since: number | undefined): SearchGroupVersion[];
  indexNames(hash: string, literal: string): boolean;
  latestVersion(path: string): VersionInfo | undefined;
  blobTextState(hash: string): searchIndex.BlobTextState | undefined;
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

  indexNames(hash: string, literal: string): boolean {
    return indexNames(this.sql, hash, literal);
  }

  latestVersion(path: string): VersionInfo | undefined {
    return latestVersion(this.sql, path);
  }

  blobTextState(hash: string): searchIndex.BlobTextState | undefined {
    return searchIndex.blobTextState(this.sql, hash);
  }
}
