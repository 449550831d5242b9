import type { DiskState, VersionInfo } from '../../shared/contract.js';

// A version's number as people know it: N in "Version N", its place in its file's history (1 is
// the oldest), the same in the list, the header, the dialogs and the toasts. Counted from the
// file's version count, so the numbers stay right before the oldest page is loaded.

/**
 * How many versions the selected file has: the list's length once the oldest page is loaded,
 * otherwise the count that came with the disk state (null until it has).
 */
export function versionTotal(s: { versionsMore: boolean; versions: readonly VersionInfo[]; disk: DiskState | null }): number | null {
  return s.versionsMore ? (s.disk?.versionCount ?? null) : s.versions.length;
}

/** Version numbers as the list shows them: 1 is the oldest; none while the total is unknown. */
export function versionNumbers(newestFirst: readonly VersionInfo[], total: number | null): Map<number, number> {
  if (total === null || total < newestFirst.length) return new Map();
  return new Map(newestFirst.map((v, i) => [v.versionId, total - i]));
}

/** The number of one version of the selected file, when known. */
export function numberOfVersion(s: { versionsMore: boolean; versions: readonly VersionInfo[]; disk: DiskState | null }, versionId: number): number | undefined {
  return versionNumbers(s.versions, versionTotal(s)).get(versionId);
}
