import { closeSync, openSync, readSync } from 'node:fs';
import { HindsightError } from '../../../shared/errors.js';
import type { VersionInfo } from '../../../shared/history.js';
import type { ProjectStore } from '../project/projectStore.js';
import { assertProjectPath } from '../restore/safeTarget.js';
import { blobPath } from '../store/storeLayout.js';
import { fsError } from '../fsErrors.js';

// The first bytes of a version, for the viewer: a 4 GiB video's version costs a read of its head,
// never the whole blob in memory. The version is the one named, or the latest with contents.

export interface VersionHead {
  version: VersionInfo;
  bytes: Buffer;
}

export function readVersionHead(store: ProjectStore, path: string, versionId: number | undefined, limit: number): VersionHead {
  assertProjectPath(path);
  const version =
    versionId === undefined ? store.index.versionsOf(path).filter((v) => v.hash !== null).at(-1) : store.index.version(versionId);
  if (!version || (versionId !== undefined && (version as { path?: string }).path !== path)) {
    throw new HindsightError('VERSION_NOT_FOUND', `There is no version ${versionId ?? ''} of ${path}.`.replace('  ', ' '), { path, versionId });
  }
  if (version.hash === null) {
    throw new HindsightError('VERSION_NOT_FOUND', `Version ${versionId} of ${path} is a deletion: it has no contents.`, { path, versionId });
  }
  if (version.type === 'symlink') return { version, bytes: Buffer.from(version.target ?? '', 'utf8') };
  return { version, bytes: readHead(blobPath(store.blobsDir, version.hash), limit, version.hash) };
}

/** At most `limit` bytes from the start of a stored blob. */
function readHead(file: string, limit: number, hash: string): Buffer {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new HindsightError('BLOB_MISSING', `The stored contents ${hash.slice(0, 12)}… are missing from the history store.`, { hash });
    }
    throw fsError('read the stored contents', file, error);
  }
  try {
    return readFully(fd, limit);
  } finally {
    closeSync(fd);
  }
}

/** Reads from the start of an open file until `limit` bytes or its end. */
export function readFully(fd: number, limit: number): Buffer {
  const buffer = Buffer.allocUnsafe(limit);
  let filled = 0;
  while (filled < limit) {
    const n = readSync(fd, buffer, filled, limit - filled, filled);
    if (n === 0) break;
    filled += n;
  }
  return buffer.subarray(0, filled);
}
