import { readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { bytesOfName, displayPath, hasRawBytes, nameFromBytes } from '../../../shared/fileNameBytes.js';

// Project paths on the disk. A project path is held as shared/fileNameBytes.ts says: a plain
// string, unless a name in it is not UTF-8. Node's fs takes a string (which it writes as UTF-8)
// or the bytes themselves, so a path without escaped bytes, the common case, stays a string at no
// cost, and only the rare one becomes a Buffer. Every open, stat, list and write of a project
// path goes through fsPath; every name read from a folder through nameOfBytes.

/** What fs calls take: a string, or the exact bytes when a name is not UTF-8. */
export type FsPath = string | Buffer;

/** The path on disk of a project path (root itself for ''). */
export function fsPath(root: string, path: string): FsPath {
  return fsArg(path === '' ? root : join(root, path));
}

/**
 * What fs calls take for an absolute path held in the stored form (made with node:path from a
 * root and project paths: the escapes hold no '/' or '.', so join, dirname and basename keep them).
 */
export function fsArg(abs: string): FsPath {
  return hasRawBytes(abs) ? Buffer.from(bytesOfName(abs)) : abs;
}

/** The stored form of a name a folder listing gave as bytes. */
export function nameOfBytes(bytes: Buffer): string {
  // Node's decoder puts U+FFFD where the bytes are not UTF-8: a name without one (nor anything of
  // the escape range) is valid UTF-8 and its string is the stored form as it is.
  const text = bytes.toString('utf8');
  return text.includes('\uFFFD') || text.includes('\uDBFF') ? nameFromBytes(bytes) : text;
}

/** A path on disk as people read it in a message (bytes that are not UTF-8 as \xNN). */
export function fsPathText(path: FsPath): string {
  return typeof path === 'string' ? displayPath(path) : displayPath(nameOfBytes(path));
}

/** The stored form of an absolute path on disk (for the path functions of node:path). */
export function fsPathString(path: FsPath): string {
  return typeof path === 'string' ? path : nameOfBytes(path);
}

/** Where a link points, in the stored form (a target that is not UTF-8 keeps its bytes). */
export function linkTarget(abs: FsPath): string {
  return nameOfBytes(readlinkSync(abs, { encoding: 'buffer' }));
}

/** realpathSync for a path in the stored form, answered in the stored form. */
export function realPath(path: string): string {
  // Node's JS realpath loses bytes that are not UTF-8; the native one (libuv) keeps them.
  return hasRawBytes(path) ? nameOfBytes(realpathSync.native(fsArg(path), { encoding: 'buffer' })) : realpathSync(path);
}
