import type { HistoryIndex } from './historyIndex.js';

// A version as people know it: "Version N", N its place in its file's history (1 is the oldest),
// the number the viewer's list shows. Internal version ids never reach a person.

export function versionOrdinal(index: HistoryIndex, path: string, versionId: number): number | null {
  const at = index.versions.versionsOf(path).findIndex((v) => v.versionId === versionId);
  return at < 0 ? null : at + 1;
}

/** "version 3", or "an earlier version" for one no longer in the file's history. */
export function versionName(index: HistoryIndex, path: string, versionId: number): string {
  const n = versionOrdinal(index, path, versionId);
  return n === null ? 'an earlier version' : `version ${n}`;
}
