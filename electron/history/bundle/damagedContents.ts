import { HindsightError, isHindsightError } from '../../../shared/errors.js';
import type { DamagedContents } from '../../../shared/contract/values.js';
import { damagedVersionsText } from '../../../shared/damagedVersions.js';
import type { ProjectStore } from '../project/projectStore.js';

// What an export would pass on that is not good: the blobs it carries that are damaged or missing.
// Known ones (verify or any reader found them: damaged_blobs) are told by the index before a byte
// is written; `--skip-damaged` reads every blob whole first as well, so the header can name each
// one it leaves out. An export without it refuses, naming each file and version, and writes no
// bundle: an importer would refuse the whole bundle for the one blob.

/** The blobs of `blobs` known damaged or missing; with `look`, also those found so by reading each whole (hash-checked, a compressed one inflated). */
export function damagedAmong(store: ProjectStore, blobs: readonly { hash: string; size: number }[], look: boolean): DamagedContents[] {
  const known = new Set(store.index.damage.damagedHashes());
  const found: DamagedContents[] = [];
  for (const blob of blobs) {
    const problem = known.has(blob.hash) ? 'corrupt' : look ? problemOf(store, blob) : undefined;
    if (problem !== undefined) found.push(namedDamage(store, blob, problem));
  }
  return found;
}

/** The blob's damage with every version naming it. */
export function namedDamage(store: ProjectStore, blob: { hash: string; size: number }, problem: DamagedContents['problem']): DamagedContents {
  const versions = store.index.versions.versionsNaming(blob.hash).map(({ path, versionId }) => ({ path, versionId }));
  return { hash: blob.hash, size: blob.size, problem, versions };
}

/** 'missing' or 'corrupt' when the blob does not read whole as its name; undefined when it does. */
function problemOf(store: ProjectStore, blob: { hash: string; size: number }): DamagedContents['problem'] | undefined {
  try {
    store.blobs.checkWhole(blob.hash, blob.size);
    return undefined;
  } catch (error) {
    if (!isBlobDamage(error)) throw error;
    return error.code === 'BLOB_MISSING' ? 'missing' : 'corrupt';
  }
}

/** A reader's typed error for a damaged or missing blob. */
export function isBlobDamage(error: unknown): error is HindsightError {
  return isHindsightError(error) && (error.code === 'BLOB_CORRUPT' || error.code === 'BLOB_MISSING');
}

export { damagedVersionsText };

/** The refusal of an export that would carry damaged or missing contents; nothing was written. */
export function exportRefused(damaged: readonly DamagedContents[], written: 'none' | 'cut'): HindsightError {
  const code = damaged.every((d) => d.problem === 'missing') ? 'BLOB_MISSING' : 'BLOB_CORRUPT';
  const first = damaged[0];
  const after = written === 'none' ? 'No bundle was written.' : 'The bundle sent so far stops there and an import will refuse it.';
  return new HindsightError(
    code,
    `The export was refused: the stored contents of ${damagedVersionsText(damaged)} are damaged or missing, and a bundle would pass them on. ${after} Run verify --repair to look for their bytes in the folder, or export --skip-damaged to write the rest and leave them out.`,
    // The first one as a reader's error names it (hash, path, versionId), then every one.
    {
      hash: first?.hash ?? null,
      path: first?.versions[0]?.path ?? null,
      versionId: first?.versions[0]?.versionId ?? null,
      damaged: damaged.map((d) => ({ ...d })),
    },
  );
}
