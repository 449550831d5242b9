import { statSync } from 'node:fs';

// A folder is known by its real path and its identity: device, inode and birth time. A folder
// deleted and made again at the same path gets a new identity, so its history is not mixed in.

export interface FolderIdentity {
  dev: string;
  ino: string;
  birthtimeNs: string;
}

export function folderIdentity(path: string): FolderIdentity {
  const st = statSync(path, { bigint: true });
  return { dev: st.dev.toString(), ino: st.ino.toString(), birthtimeNs: st.birthtimeNs.toString() };
}

/** The identity of the folder now, or undefined when nothing is at the path any more. */
export function currentIdentity(path: string): FolderIdentity | undefined {
  try {
    return folderIdentity(path);
  } catch {
    return undefined;
  }
}

export function sameIdentity(a: FolderIdentity, b: FolderIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.birthtimeNs === b.birthtimeNs;
}
