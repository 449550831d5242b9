import { closeSync, constants, fstatSync, lstatSync, openSync } from 'node:fs';
import { HindsightError } from '../../../shared/errors.js';
import { fsError } from '../fsErrors.js';
import { safeTarget } from '../paths/safeTarget.js';
import { readFileHead } from '../fileHead.js';
import { fsArg, linkTarget } from '../paths/fsPath.js';

// The first bytes of a file as it is on disk now, for a diff against a version. A symlink is read
// as its target (never followed), and a parent folder that is a link leading outside the project
// is refused, as for a restore. undefined: there is no file at that path now.

export interface DiskHead {
  type: 'file' | 'symlink';
  mode: number;
  size: number;
  bytes: Buffer;
}

export function readDiskHead(root: string, path: string, limit: number): DiskHead | undefined {
  const abs = safeTarget(root, path);
  let st;
  try {
    st = lstatSync(fsArg(abs));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw fsError('read', path, error);
  }
  if (st.isSymbolicLink()) {
    const target = Buffer.from(linkTarget(fsArg(abs)), 'utf8');
    return { type: 'symlink', mode: st.mode & 0o7777, size: target.length, bytes: target };
  }
  if (!st.isFile()) {
    throw new HindsightError('PATH_INVALID', `${path} is not a file on disk now (it is a folder or a device).`, { path });
  }
  let fd: number;
  try {
    // O_NOFOLLOW: a file swapped for a link between the lstat and the open is not followed.
    fd = openSync(fsArg(abs), constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    throw fsError('read', path, error);
  }
  try {
    const now = fstatSync(fd);
    return { type: 'file', mode: now.mode & 0o7777, size: now.size, bytes: readFileHead(fd, limit) };
  } finally {
    closeSync(fd);
  }
}
