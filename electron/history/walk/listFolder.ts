import { readdirSync, type Dirent } from 'node:fs';
import type { FsPath } from '../paths/fsPath.js';
import { count } from '../trace.js';

// A folder's entries, listed as strings: names that are UTF-8 (nearly all) cost no Buffer each and
// no decoding of ours. Node's decoder puts U+FFFD where a name's bytes are not UTF-8, and a name in
// the escape range of shared/fileNameBytes.ts holds U+DBFF: a listing with either is read again as
// bytes, so every such name keeps its exact bytes (the caller turns them into the stored form).

/** One entry of a listing: its name a string, or the bytes of a folder whose listing needed them. */
export type ListedEntry = Dirent<string> | Dirent<Buffer>;

export function listFolder(dir: FsPath): ListedEntry[] {
  const listed = readdirSync(dir, { withFileTypes: true, encoding: 'utf8' });
  count('walk.readdir');
  if (!listed.some((d) => d.name.includes('\uFFFD') || d.name.includes('\uDBFF'))) return listed;
  count('walk.readdirAsBytes');
  return readdirSync(dir, { withFileTypes: true, encoding: 'buffer' });
}
