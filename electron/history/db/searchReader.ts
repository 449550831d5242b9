import type { VersionInfo } from '../../../shared/history.js';
import { ReadOnlyReader } from './readOnlyReader.js';
import * as searchIndex from './searchIndex.js';
import { latestVersion } from './versionQueries.js';

// A search's reads from its own read-only connection (the search's worker thread opens one, on a
// history the history process has opened and migrated): the index's candidates, the file versions
// to read, each path's latest version. WAL lets it read while the history process's connection
// writes. HistoryIndex answers the same questions on the history process's connection.

export interface SearchReads {
  searchProgress(maxSize: number): { indexedBlobs: number; totalBlobs: number };
  candidateVersions(literal: string): Iterable<searchIndex.SearchVersionRow>;
  unindexedVersions(maxSize: number): Iterable<searchIndex.SearchVersionRow>;
  fileVersionsWithin(maxSize: number): Iterable<searchIndex.SearchVersionRow>;
  latestVersion(path: string): VersionInfo | undefined;
  blobTextState(hash: string): searchIndex.BlobTextState | undefined;
}

export class SearchReader extends ReadOnlyReader implements SearchReads {
  searchProgress(maxSize: number): { indexedBlobs: number; totalBlobs: number } {
    return searchIndex.searchProgress(this.sql, maxSize);
  }

  candidateVersions(literal: string): Iterable<searchIndex.SearchVersionRow> {
    return searchIndex.candidateVersions(this.sql, literal);
  }

  unindexedVersions(maxSize: number): Iterable<searchIndex.SearchVersionRow> {
    return searchIndex.unindexedVersions(this.sql, maxSize);
  }

  fileVersionsWithin(maxSize: number): Iterable<searchIndex.SearchVersionRow> {
    return searchIndex.fileVersionsWithin(this.sql, maxSize);
  }

  latestVersion(path: string): VersionInfo | undefined {
    return latestVersion(this.sql, path);
  }

  blobTextState(hash: string): searchIndex.BlobTextState | undefined {
    return searchIndex.blobTextState(this.sql, hash);
  }
}
