import type { SearchUnreadable, SearchUnreadableFile, SearchVersionRef } from '../../../shared/contract/values.js';
import { appendAll } from '../../../shared/largeArrays.js';

// The versions a search skipped because their stored contents could not be read (missing, or
// bytes that no longer match their hash): a search that says "no version holds that text" must
// also say what it could not look at. Every such version is counted; the files are named, each
// once with all its skipped versions, up to UNREADABLE_FILES_NAMED, so a badly damaged store
// does not make the answer as long as the history.

/** Files an answer names at most; the count covers every version skipped. */
export const UNREADABLE_FILES_NAMED = 100;

export class UnreadableVersions {
  #versions = 0;
  readonly #files = new Map<string, SearchUnreadableFile>();

  add(path: string, versions: readonly SearchVersionRef[]): void {
    this.#versions += versions.length;
    const named = this.#files.get(path);
    if (named) appendAll(named.versions, versions);
    else if (this.#files.size < UNREADABLE_FILES_NAMED) this.#files.set(path, { path, versions: [...versions] });
  }

  /** The answer's part; each file's versions newest first, as a hit lists them. */
  result(): SearchUnreadable {
    const files = [...this.#files.values()];
    for (const file of files) file.versions.sort((a, b) => b.snapshotId - a.snapshotId || a.versionId - b.versionId);
    return { versions: this.#versions, files };
  }
}
