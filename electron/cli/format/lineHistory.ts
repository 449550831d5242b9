import type { Writable } from 'node:stream';
import type { LineChange, LineSpanInfo, LineVersion, VersionInfo } from '../../../shared/history.js';
import { terminatorLength } from '../../../shared/diff/splitLines.js';
import { visibleText } from '../../../shared/fileNameBytes.js';
import { versionNumbers } from './listings.js';
import { formatLocalTime } from './words.js';

// `log FOLDER PATH --lines A,B` in words: each version that changed the lines, oldest first, with
// its number in the file's history (1 is the oldest, as `log FOLDER PATH` numbers it), where the
// lines were then, and its change to them as `diff -u` marks lines (no context: what changed).

export function printLineHistory(out: Writable, found: readonly LineVersion[], allVersions: readonly VersionInfo[]): void {
  const numberOf = versionNumbers(allVersions);
  if (found.length === 0) out.write('No version changed these lines.\n');
  for (const version of found) {
    const were = version.linesBefore === null ? 'added here' : `were ${spanText(version.linesBefore)}`;
    out.write(
      `Version ${numberOf.get(version.versionId)}  ${formatLocalTime(version.at)}  ${version.kind}  lines ${spanText(version.lines)} (${were})  restore with --version ${version.versionId}\n`,
    );
    for (const change of version.changes) writeChange(out, change);
    out.write('\n');
  }
}

function writeChange(out: Writable, change: LineChange): void {
  out.write(`@@ -${change.beforeLine},${change.removed.length} +${change.afterLine},${change.added.length} @@\n`);
  for (const line of change.removed) out.write(`-${lineText(line)}\n`);
  for (const line of change.added) out.write(`+${lineText(line)}\n`);
}

function lineText(line: string): string {
  return visibleText(line.slice(0, line.length - terminatorLength(line)));
}

function spanText(span: LineSpanInfo): string {
  return span.from === span.to ? String(span.from) : `${span.from}-${span.to}`;
}

/** `--lines A,B` as typed: the first and the last line, counted from 1. */
export function parseLinesFlag(text: string): LineSpanInfo | null {
  const match = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(text);
  if (!match) return null;
  return { from: Number(match[1]), to: Number(match[2]) };
}
