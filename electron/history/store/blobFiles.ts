import { closeSync, existsSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { blobFilePath, blobOfFileName, FAN_OUT_FOLDER, namesIn, type BlobForm } from './storeLayout.js';
import { newTempPath, openTempBeside, placeBlob, type PlaceStats } from './placeBlob.js';

// The files of the blob store, whatever form a blob is kept in (raw or compressed: one file per
// blob, its name telling which). Whether a blob is held, removing one, whether a store holds any,
// and the temps a streamed write goes through before its rename. Outside store/, code names
// blobs by hash only: no path of a blob is made anywhere else (eslint.config.js).

const FORMS: readonly BlobForm[] = ['compressed', 'raw', 'chunked'];

/** A file holds the blob, in any form (its bytes are not checked, nor a list's chunks: readers do that). */
export function hasBlob(blobsDir: string, hash: string): boolean {
  return FORMS.some((form) => existsSync(blobFilePath(blobsDir, hash, form)));
}

/** The blob is stored: from the known set when there is one (no system call), else from the disk. */
export function isStored(blobsDir: string, hash: string, known: ReadonlySet<string> | undefined): boolean {
  return known ? known.has(hash) : hasBlob(blobsDir, hash);
}

/** Removes a blob's file, whichever form it is in (a list only: its chunks are blobs of their own); a blob already gone is fine. */
export function removeBlob(blobsDir: string, hash: string): void {
  for (const form of FORMS) rmSync(blobFilePath(blobsDir, hash, form), { force: true });
}

/** Any blob file is in the store; a folder that cannot be listed holds none that could be read. */
export function holdsAnyBlob(blobsDir: string): boolean {
  const names = (dir: string) => {
    try {
      return namesIn(dir);
    } catch {
      return [];
    }
  };
  return names(blobsDir).some((folder) => FAN_OUT_FOLDER.test(folder) && names(join(blobsDir, folder)).some((name) => blobOfFileName(name) !== undefined));
}

/** A temp for a blob whose hash is known, beside its final file, opened for writing (0600). */
export function openBlobTemp(blobsDir: string, hash: string, stats?: PlaceStats): { temp: string; fd: number } {
  return openTempBeside(blobFilePath(blobsDir, hash, 'raw'), stats);
}

/** A temp for bytes whose hash is not known yet (a download), created empty and private. */
export function newLooseTemp(blobsDir: string): string {
  const temp = newTempPath(blobsDir);
  closeSync(openSync(temp, 'wx', 0o600));
  return temp;
}

/**
 * Renames a finished temp (its bytes checked against `hash`, in `form`) into place. `replacing`:
 * the blob was found damaged; files of the other forms are removed after the rename, so the right
 * bytes are the only ones left under that hash.
 */
export function placeBlobFile(temp: string, blobsDir: string, hash: string, form: BlobForm, stats?: PlaceStats, replacing = false): void {
  placeBlob(temp, blobFilePath(blobsDir, hash, form), stats);
  if (!replacing) return;
  for (const other of FORMS) if (other !== form) rmSync(blobFilePath(blobsDir, hash, other), { force: true });
}

/** Best-effort removal of a temp that will not be placed; its absence is fine. */
export { dropTemp } from './placeBlob.js';
