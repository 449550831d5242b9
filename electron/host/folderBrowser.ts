import { readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { FolderListing } from '../../shared/contract.js';
import { HindsightError } from '../../shared/errors.js';
import { isInside } from '../history/paths/safeTarget.js';

// The browser viewer's "Open folder…" browses folders through the host (GET /folders?path=): only
// the user's own folders, under one root (the home folder unless the host is told otherwise).
// A path is taken only absolute and without '.' or '..' names (never resolved upward), then
// resolved through its links: a folder whose real place is outside the root is refused, and a link
// in a listing is shown only when it leads to a folder inside it. Each refusal is a typed error.

/** A folder holding more than this lists this many (the path field still reaches the rest). */
export const MAX_LISTED_FOLDERS = 5000;

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export function listFolders(requested: string | null, browseRoot: string): FolderListing {
  const root = realpathSync(browseRoot);
  const path = requested === null || requested === '' ? root : checkedPath(requested);
  const real = resolveReal(path);
  if (!isInside(root, real)) {
    throw new HindsightError('PATH_OUTSIDE_ROOT', `${path} is outside ${root}: the viewer browses your own folders only.`, { path, root });
  }
  const folders: string[] = [];
  for (const entry of readEntries(real)) {
    if (entry.isDirectory() || (entry.isSymbolicLink() && leadsInside(join(real, entry.name), root))) folders.push(entry.name);
  }
  folders.sort(collator.compare);
  return {
    path: real,
    parent: real === root ? null : dirname(real),
    root,
    folders: folders.slice(0, MAX_LISTED_FOLDERS),
    truncated: folders.length > MAX_LISTED_FOLDERS,
  };
}

function checkedPath(path: string): string {
  if (path.includes('\0')) throw new HindsightError('PATH_INVALID', 'The path contains a NUL byte.', { path });
  if (!isAbsolute(path)) throw new HindsightError('PATH_INVALID', `${path} is not an absolute path.`, { path });
  if (path.split(/[\\/]/).some((name) => name === '..' || name === '.')) {
    throw new HindsightError('PATH_INVALID', `${path} has a '.' or '..' in it: name the folder itself.`, { path });
  }
  return path;
}

function resolveReal(path: string): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    throw fsRefusal(error, path);
  }
  if (!statSync(real).isDirectory()) throw new HindsightError('NOT_A_FOLDER', `${path} is not a folder.`, { path });
  return real;
}

function readEntries(real: string) {
  try {
    return readdirSync(real, { withFileTypes: true });
  } catch (error) {
    throw fsRefusal(error, real);
  }
}

function leadsInside(link: string, root: string): boolean {
  try {
    const target = realpathSync(link);
    return isInside(root, target) && statSync(target).isDirectory();
  } catch {
    return false; // dangling, or not ours to read: not offered
  }
}

function fsRefusal(error: unknown, path: string): HindsightError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new HindsightError('FOLDER_NOT_FOUND', `${path} does not exist.`, { path });
  if (code === 'ENOTDIR') return new HindsightError('NOT_A_FOLDER', `${path} is not a folder.`, { path });
  if (code === 'EACCES' || code === 'EPERM') return new HindsightError('PERMISSION_DENIED', `${path} cannot be read: permission denied.`, { path });
  return new HindsightError('INTERNAL', `${path} could not be listed: ${(error as Error).message}`, { path });
}
