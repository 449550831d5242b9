import { comparison, type Comparison } from './compareSides.js';
import { versionNumbers, versionTotal } from './versionNumbers.js';
import type { VersionsSlice } from './versionsSlice.js';

/** What the selected file's view compares now, side by side named (null: no comparison). */
export function currentComparison(
  s: Pick<VersionsSlice, 'versions' | 'selectedVersionId' | 'compareWith' | 'comparePicks' | 'gitVersions' | 'versionsMore' | 'disk'>,
): Comparison | null {
  const selected = s.versions.find((v) => v.versionId === s.selectedVersionId);
  if (!selected) return null;
  const numberOf = versionNumbers(s.versions, versionTotal(s));
  return comparison({ versions: s.versions, selected, compareWith: s.compareWith, picks: s.comparePicks, numberOf, git: s.gitVersions });
}
