import type { Writable } from 'node:stream';
import type { SearchResult } from '../../../shared/contract/values.js';
import { countOf, formatLocalTime, formatNumber } from './words.js';
import { displayPath, visibleLineText } from '../../../shared/fileNameBytes.js';

// The human form of a search: each file and content with its versions and when it was seen,
// whether the file still holds the text, then its lines (a tab in them printed as a tab, the
// other control characters as \xNN); last, how the search was made.

export function printSearch(out: Writable, result: SearchResult): void {
  for (const hit of result.results) {
    const newest = hit.versions[0]!;
    const seen =
      hit.firstSeen === hit.lastSeen ? `seen ${formatLocalTime(hit.lastSeen)}` : `seen ${formatLocalTime(hit.firstSeen)} .. ${formatLocalTime(hit.lastSeen)}`;
    const state = hit.stillPresent ? '' : '  [gone from the current file]';
    out.write(`${displayPath(hit.path)}  (${countOf(hit.versions.length, 'version')}, ${seen}; newest: --version ${newest.versionId})${state}\n`);
    for (const m of hit.matches) out.write(`  ${m.line}:${m.column}: ${visibleLineText(m.preview)}\n`);
  }
  if (result.results.length === 0) out.write('No version holds that text.\n');
  if (result.truncated) out.write(`Only the newest ${countOf(result.results.length, 'hit')} are shown (--limit).\n`);
  const { index } = result;
  const coverage = index.done ? '' : ` (index ${formatNumber(index.indexedBlobs)} of ${formatNumber(index.totalBlobs)} contents; the rest were read)`;
  out.write(result.indexed ? `Searched the index${coverage}.\n` : 'Read every version (the query has no 3 characters of plain text for the index).\n');
}
