import { closeSync, openSync, readSync } from 'node:fs';
import type { VersionInfo } from '../../../shared/history.js';
import type { ProjectStore } from '../project/projectStore.js';
import { findVersion } from './findVersion.js';
import { blobPath } from '../store/storeLayout.js';
import { fsError } from '../fsErrors.js';
import { blobMissing } from '../store/readBlob.js';

// The first bytes of a version, for the viewer: a 4 GiB video's version costs a read of its head,
// never the whole blob in memory. The version is the one named, or the latest with contents.

export interface VersionHead {
  version: VersionInfo;
  bytes: Buffer;
}

export function readVersionHead(store: ProjectStore, path: string, versionId: number | undefined, limit: number): VersionHead {
  const version = findVersion(store, path, versionId);
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
      throw blobMissing(hash);
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
