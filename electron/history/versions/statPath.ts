import { lstatSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { WalkEntry } from '../walk/walkFolder.js';
import { count } from '../trace.js';

// What is at one project path right now, looked at the way the walk looks: lstat, never through a
// link. A path whose parent folder is a link is not part of the project (the walk would not go
// there), so it reads as absent.

export function statPath(root: string, path: string): WalkEntry | undefined {
  if (parentIsLink(root, path)) return undefined;
  const abs = join(root, path);
  try {
    const st = lstatSync(abs, { bigint: true });
    count('rescan.lstat');
    const type = st.isFile() ? 'file' : st.isSymbolicLink() ? 'symlink' : undefined;
    if (!type) return undefined;
    const entry: WalkEntry = {
      path,
      abs,
      type,
      size: Number(st.size),
      mode: Number(st.mode & 0o7777n),
      mtimeNs: st.mtimeNs.toString(),
      ctimeNs: st.ctimeNs.toString(),
      ino: st.ino.toString(),
    };
    if (type === 'symlink') entry.target = readlinkSync(abs);
    return entry;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function parentIsLink(root: string, path: string): boolean {
  const parts = path.split('/');
  let current = root;
  for (const part of parts.slice(0, -1)) {
    current = join(current, part);
    try {
      if (lstatSync(current).isSymbolicLink()) return true;
    } catch {
      return false;
    }
  }
  return false;
}
