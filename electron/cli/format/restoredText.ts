import type { GitSource, RestoreFileResult, VersionInfo } from '../../../shared/contract.js';
import { displayPath } from '../../../shared/fileNameBytes.js';
import { versionNumbers } from './listings.js';
import { formatLocalTime } from './words.js';

/**
 * "Restored a.txt to version 2 (2026-12-04 21:09:50); undo with --version 17.": the version
 * by its number in the file's history and its time, as `log` lists it; ids only as what --version takes.
 */
export function restoredText(oldestFirst: readonly VersionInfo[], path: string, asked: number | GitSource, result: RestoreFileResult): string {
  const numberOf = versionNumbers(oldestFirst);
  const named = (versionId: number) => {
    const v = oldestFirst.find((x) => x.versionId === versionId);
    return v ? `version ${numberOf.get(versionId)} (${formatLocalTime(v.at)})` : 'an earlier version';
  };
  const recorded = oldestFirst.at(-1);
  const to = typeof asked === 'string' ? `git's ${asked} version${recorded ? `, now version ${oldestFirst.length}` : ''}` : named(asked);
  const undo = result.undoVersionId === null ? '' : `; undo with --version ${result.undoVersionId}`;
  return `Restored ${displayPath(path)} to ${to}${undo}.\n`;
}
