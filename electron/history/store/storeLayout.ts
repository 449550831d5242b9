import { join } from 'node:path';

// The on-disk layout of one project's history store. Every path of the store is made here.

export const SMALL_FILE_LIMIT = 64 * 1024;
export const TEMP_PREFIX = 'incoming-';

export function projectStoreDir(dataDir: string, projectId: string): string {
  return join(dataDir, 'projects', projectId);
}

export function blobsDirOf(storeDir: string): string {
  return join(storeDir, 'blobs');
}

export function historyDbPath(storeDir: string): string {
  return join(storeDir, 'history.db');
}

export function blobPath(blobsDir: string, hash: string): string {
  return join(blobsDir, hash.slice(0, 2), hash);
}
