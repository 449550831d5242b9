import type { Writable } from 'node:stream';
import type { SearchResult, SearchUnreadable } from '../../../shared/contract/values.js';
import { countOf, formatLocalTime, formatNumber } from './words.js';
import { displayPath, visibleLineText } from '../../../shared/fileNameBytes.js';

// The human form of a search: each file and content with its versions and when it was seen,
// whether the file still holds the text, then its lines (a tab in them printed as a tab, the
// other control characters as \xNN); then the versions it could not read; last, how the search
// was made.

export function printSearch(out: Writable, result: SearchResult): void {
  for (const hit of result.results) {
    const newest = hit.versions[0]!;
    const seen =
      hit.firstSeen === hit.lastSeen ? `seen ${formatLocalTime(hit.lastSeen)}` : `seen ${formatLocalTime(hit.firstSeen)} .. ${formatLocalTime(hit.lastSeen)}`;
    const state = hit.stillPresent ? '' : '  [gone from the current file]';
    out.write(`${displayPath(hit.path)}  (${countOf(hit.versions.length, 'version')}, ${seen}; newest: --version ${newest.versionId})${state}\n`);
    for (const m of hit.matches) out.write(`  ${m.line}:${m.column}: ${visibleLineText(m.preview)}\n`);
  }
  if (result.results.length === 0) out.write(result.unreadable.versions === 0 ? 'No version holds that text.\n' : 'No version read holds that text.\n');
  printUnreadable(out, result.unreadable);
  if (result.truncated) out.write(`Only the newest ${countOf(result.results.length, 'hit')} are shown (--limit).\n`);
  const { index } = result;
  const coverage = index.done ? '' : ` (index ${formatNumber(index.indexedBlobs)} of ${formatNumber(index.totalBlobs)} contents; the rest were read)`;
  out.write(result.indexed ? `Searched the index${coverage}.\n` : 'Read every version (the query has no 3 characters of plain text for the index).\n');
}

/** The versions skipped because their stored contents are missing or damaged, by file, so a "no" is never silent about them. */
function printUnreadable(out: Writable, unreadable: SearchUnreadable): void {
  if (unreadable.versions === 0) return;
  out.write(`Skipped ${countOf(unreadable.versions, 'version')} whose stored contents are missing or damaged (hindsight verify says more):\n`);
  for (const file of unreadable.files) {
    const ids = file.versions.map((v) => v.versionId).join(', ');
    out.write(`  ${displayPath(file.path)}  (${file.versions.length === 1 ? 'version' : 'versions'} ${ids})\n`);
  }
  const named = unreadable.files.reduce((n, file) => n + file.versions.length, 0);
  if (named < unreadable.versions) out.write(`  and ${countOf(unreadable.versions - named, 'version')} of other files.\n`);
}
