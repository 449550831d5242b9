import type { DamagedContents } from './contract/values.js';
import { displayPath } from './fileNameBytes.js';

// The files and versions whose stored contents are damaged or missing, in the words the CLI's
// export and the viewer's both use.

/** "a.txt (version 3), b.bin (versions 5, 9)", sorted by path. */
export function damagedVersionsText(damaged: readonly DamagedContents[]): string {
  const byPath = new Map<string, number[]>();
  for (const blob of damaged) for (const v of blob.versions) byPath.set(v.path, [...(byPath.get(v.path) ?? []), v.versionId]);
  return [...byPath]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, ids]) => `${displayPath(path)} (${ids.length === 1 ? 'version' : 'versions'} ${ids.sort((a, b) => a - b).join(', ')})`)
    .join(', ');
}
