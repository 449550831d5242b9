import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BLOB_HASH_SOURCE } from '../../../shared/blobHash.js';
import type { BlobForm } from '../codec/blobCodec.js';

// The on-disk layout of one project's history store. Every path of the store is made here.

export const SMALL_FILE_LIMIT = 64 * 1024;
export const TEMP_PREFIX = 'incoming-';
/** The name of a fan-out folder of blobs/: the first two hex digits of the hashes it holds. */
export const FAN_OUT_FOLDER = /^[0-9a-f]{2}$/;

/** The names in a store folder; none when it does not exist (a fan-out folder no blob needed yet). */
export function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}

export function projectStoreDir(dataDir: string, projectId: string): string {
  return join(dataDir, 'projects', projectId);
}

export function blobsDirOf(storeDir: string): string {
  return join(storeDir, 'blobs');
}

export function historyDbPath(storeDir: string): string {
  return join(storeDir, 'history.db');
}

/** The rolling backup of history.db (SQLite's backup API; at most daily and after each first copy). */
export function historyBackupPath(storeDir: string): string {
  return join(storeDir, 'history.db.backup');
}

// How a blob's bytes are kept (codec/blobCodec.ts): declared beside the codec, which the wire formats below this folder read.
export type { BlobForm };

/** The suffix of a compressed blob's file: the name alone tells the form, whatever the bytes hold. */
export const COMPRESSED_SUFFIX = '.zst';
/** The suffix of a chunked blob's list. */
export const CHUNKED_SUFFIX = '.chunks';

/** A raw blob's file: named by the SHA-256 of its bytes, in the fan-out folder of its first two hex digits. */
export function blobPath(blobsDir: string, hash: string): string {
  return join(blobsDir, hash.slice(0, 2), hash);
}

/** A compressed blob's file: the same name (the SHA-256 of the raw bytes) with COMPRESSED_SUFFIX. */
export function compressedBlobPath(blobsDir: string, hash: string): string {
  return join(blobsDir, hash.slice(0, 2), `${hash}${COMPRESSED_SUFFIX}`);
}

/** A chunked blob's list: the same name (the SHA-256 of the raw bytes) with CHUNKED_SUFFIX. */
export function chunkListPath(blobsDir: string, hash: string): string {
  return join(blobsDir, hash.slice(0, 2), `${hash}${CHUNKED_SUFFIX}`);
}

export function blobFilePath(blobsDir: string, hash: string, form: BlobForm): string {
  if (form === 'raw') return blobPath(blobsDir, hash);
  return form === 'compressed' ? compressedBlobPath(blobsDir, hash) : chunkListPath(blobsDir, hash);
}

const BLOB_FILE_NAME = new RegExp(`^(${BLOB_HASH_SOURCE})(\\.zst|\\.chunks)?$`);

/** The blob a file name in a fan-out folder holds, and its form; undefined for anything else (a temp). */
export function blobOfFileName(name: string): { hash: string; form: BlobForm } | undefined {
  const match = BLOB_FILE_NAME.exec(name);
  if (!match) return undefined;
  return { hash: match[1]!, form: match[2] === COMPRESSED_SUFFIX ? 'compressed' : match[2] === CHUNKED_SUFFIX ? 'chunked' : 'raw' };
}

/** The lock held by the one process writing a project's history at a time. */
export function writerLockPath(storeDir: string): string {
  return join(storeDir, 'writer.lock');
}

/** Empty; its mtime is when the blob temps were last swept (sweepDue.ts). */
export function tempsSweptPath(storeDir: string): string {
  return join(storeDir, 'temps.swept');
}

/** The journal of restores running (or killed while running): which temps in the project are ours. */
export function restoreJournalDir(storeDir: string): string {
  return join(storeDir, 'restore-temps');
}
