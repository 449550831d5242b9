import type { DiffBlock } from '../../../shared/diff/diffBlocks.js';
import { diffLineLists } from '../../../shared/diff/textDiff.js';
import { rangeBefore, type LineSpan, type RangeStep } from '../../../shared/diff/followLines.js';
import { splitLines } from '../../../shared/diff/splitLines.js';
import { HindsightError } from '../../../shared/errors.js';
import type { LineChange, LineSpanInfo, LineVersion, VersionInfo } from '../../../shared/history.js';
import type { ProjectStore } from '../project/projectStore.js';

// A file's history for a selection of lines (`log FOLDER PATH --lines 120,140`, the viewer's
// "History for selection"): starting at one version, each version is compared with the one
// before, the versions whose change touches the lines are kept with that part of their change, and
// the lines are followed back through the diff (shared/diff/followLines.ts) as lines above them
// come and go, as `git log -L` follows them. It ends where the lines were all added, or where
// the file began (its first version, or the version after a deletion).

/**
 * The versions of `versions` (one file's, oldest first) that changed lines `lines` of the version
 * `startId` (default: the newest), oldest first.
 */
export function lineHistory(store: ProjectStore, versions: readonly VersionInfo[], lines: LineSpanInfo, startId?: number): LineVersion[] {
  const startAt = startId === undefined ? versions.length - 1 : versions.findIndex((v) => v.versionId === startId);
  const start = versions[startAt];
  if (start === undefined) throw new HindsightError('VERSION_NOT_FOUND', `No version ${startId} of this file.`, { versionId: startId });
  if (start.type === null) throw new HindsightError('BAD_REQUEST', `${start.path} was deleted in that version: it has no lines.`, { path: start.path });
  let after = linesOf(store, start);
  let range: LineSpan | null = checkedSpan(lines, after.length, start.path);
  const found: LineVersion[] = [];
  for (let i = startAt; i >= 0 && range; i--) {
    const older = versions[i - 1];
    const before = older === undefined || older.type === null ? [] : linesOf(store, older);
    const sameBytes = older !== undefined && older.type !== null && older.hash === versions[i]!.hash && older.target === versions[i]!.target;
    const step: RangeStep = sameBytes ? { touched: [], before: range } : rangeBefore(diffLineLists(before, after, 0).blocks, range);
    if (step.touched.length > 0) {
      found.push({ ...versions[i]!, lines: spanInfo(range)!, linesBefore: spanInfo(step.before), changes: changesIn(step.touched, before, after, range) });
    }
    // Before a deletion (or the first version) the file did not exist: these lines began here.
    range = older === undefined || older.type === null ? null : step.before;
    after = before;
  }
  return found.reverse();
}

/** Each touching block's lines; those it added outside the lines followed are not part of their story. */
function changesIn(touched: readonly DiffBlock[], before: readonly string[], after: readonly string[], range: LineSpan): LineChange[] {
  return touched.map((b) => {
    const from = Math.max(b.bStart, range.start);
    const to = Math.max(from, Math.min(b.bEnd, range.end));
    return { beforeLine: b.aStart + 1, removed: before.slice(b.aStart, b.aEnd), afterLine: from + 1, added: after.slice(from, to) };
  });
}

function linesOf(store: ProjectStore, version: VersionInfo): string[] {
  if (version.type === 'symlink') return splitLines(version.target ?? '');
  const bytes = store.blobs.head(version.hash!, version.size, version.size, { path: version.path, versionId: version.versionId });
  return splitLines(bytes.toString('utf8'));
}

/** The lines asked for, checked against the version they are counted in. */
function checkedSpan(lines: LineSpanInfo, count: number, path: string): LineSpan {
  const { from, to } = lines;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to < from)
    throw new HindsightError('BAD_REQUEST', `Lines ${from},${to} are not a range: give the first and the last line, counted from 1.`, { from, to });
  if (to > count) throw new HindsightError('BAD_REQUEST', `${path} has only ${count} line${count === 1 ? '' : 's'} in that version.`, { path, lines: count });
  return { start: from - 1, end: to };
}

function spanInfo(span: LineSpan | null): LineSpanInfo | null {
  return span === null ? null : { from: span.start + 1, to: span.end };
}
