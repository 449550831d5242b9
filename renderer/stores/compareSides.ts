import type { RequestOf, VersionInfo } from '../../shared/contract.js';
import type { GitVersions } from '../../shared/git.js';
import { versionName } from '../format/versionName.js';
import type { CompareWith } from './versionsSlice.js';

// What a comparison compares, named as people know each side: the older on the left (before),
// the newer on the right (after), whichever was picked first. The same answer drives the diff
// the engine is asked for and the words over it ("Version 1 ↔ Version 32"), so they cannot
// disagree. git's HEAD or staged version takes its place by the version it equals when the list
// holds one; otherwise it is taken as the older side (what was committed before the edits since).

export type SideRequest = RequestOf<'diffInputs'>['before'];

export interface CompareSide {
  label: string;
  /** null: nothing there to compare (the first version has no previous one). */
  side: SideRequest | null;
}

export interface Comparison {
  before: CompareSide;
  after: CompareSide;
}

export interface CompareInputs {
  versions: readonly VersionInfo[];
  selected: VersionInfo;
  compareWith: CompareWith;
  picks: readonly number[];
  numberOf: ReadonlyMap<number, number>;
  git: GitVersions | null;
}

export function comparison({ versions, selected, compareWith, picks, numberOf, git }: CompareInputs): Comparison | null {
  const named = (v: VersionInfo): CompareSide => ({ label: versionName(numberOf.get(v.versionId), v.at), side: { kind: 'version', versionId: v.versionId } });
  if (picks.length === 2) {
    const two = picks.map((id) => versions.find((v) => v.versionId === id));
    if (!two[0] || !two[1]) return null;
    const [older, newer] = two.sort((x, y) => x!.snapshotId - y!.snapshotId || x!.versionId - y!.versionId);
    return { before: named(older!), after: named(newer!) };
  }
  switch (compareWith) {
    case 'none':
      return null;
    case 'disk':
      return { before: named(selected), after: { label: 'Current file', side: { kind: 'disk' } } };
    case 'previous': {
      const older = versions[versions.indexOf(selected) + 1];
      return { before: older ? named(older) : { label: 'No earlier version', side: null }, after: named(selected) };
    }
    case 'head':
    case 'index': {
      const source = compareWith === 'head' ? 'HEAD' : 'INDEX';
      const gitVersion = compareWith === 'head' ? git?.head : (git?.index ?? git?.head);
      const same = gitVersion?.hash ? versions.find((v) => v.hash === gitVersion.hash) : undefined;
      const gitName = compareWith === 'head' ? 'Git HEAD (committed)' : 'Git index (staged)';
      const label = same && numberOf.has(same.versionId) ? `${gitName} = Version ${numberOf.get(same.versionId)}` : gitName;
      const gitSide: CompareSide = { label, side: { kind: 'git', source } };
      // Newer than the selected version when it equals a later one: then it goes on the right.
      const gitIsNewer = same !== undefined && same.snapshotId > selected.snapshotId;
      return gitIsNewer ? { before: named(selected), after: gitSide } : { before: gitSide, after: named(selected) };
    }
  }
}

/** "Version 1 ↔ Version 32": the header over a comparison. */
export function comparisonTitle(c: Comparison): string {
  return `${c.before.label} ↔ ${c.after.label}`;
}
