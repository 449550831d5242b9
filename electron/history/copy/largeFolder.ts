import { HindsightError } from '../../../shared/errors.js';

// A first copy of an enormous folder (a whole disk, a home folder) is confirmed before it goes
// on. The walk counts as it goes and stops as soon as either limit is passed, before any file
// over the limit is filed; the error carries what was found, so the CLI (--yes) and the viewer (a
// confirmation) can ask and then open again with the limit lifted.

export interface LargeFolderLimit {
  /** More files than this needs confirmation; null: no limit. */
  files: number | null;
  /** More bytes than this needs confirmation; null: no limit. */
  bytes: number | null;
}

export interface FoundSoFar {
  files: number;
  bytes: number;
}

/** Throws CONFIRM_LARGE_FOLDER once what was found passes a limit. */
export function checkLargeFolder(root: string, found: FoundSoFar, limit: LargeFolderLimit): void {
  const overFiles = limit.files !== null && found.files > limit.files;
  const overBytes = limit.bytes !== null && found.bytes > limit.bytes;
  if (!overFiles && !overBytes) return;
  const what = overFiles ? `more than ${limit.files!.toLocaleString('en')} files` : `more than ${gib(limit.bytes!)}`;
  throw new HindsightError(
    'CONFIRM_LARGE_FOLDER',
    `${root} holds ${what} (found before counting stopped: ${found.files.toLocaleString('en')} files, ${gib(found.bytes)}). ` +
      'Its first copy needs confirmation; nothing was kept.',
    { root, files: found.files, bytes: found.bytes, limitFiles: limit.files, limitBytes: limit.bytes },
  );
}

function gib(bytes: number): string {
  return `${(bytes / 1024 ** 3).toFixed(bytes < 10 * 1024 ** 3 ? 1 : 0)} GiB`;
}
