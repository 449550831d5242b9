import { lstatSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sha256, writeTree, type TreeSpec } from '../../helpers/writeTree.js';

// The changes of type a restore must carry out both ways: the path `node` as a file, a folder of
// files, a link, and a folder with a folder in it (nested). Each case is a snapshot's tree and the
// tree on disk now; the restore brings the snapshot's back. Shared by the in-process matrix and
// the SIGKILL tests.

export const SHAPES = {
  file: { node: { data: 'a file named node\n', mode: 0o640 } },
  folder: { 'node/a.txt': 'a in the folder\n', 'node/b.sh': { data: '#!/bin/sh\n', mode: 0o755 } },
  symlink: { node: { link: 'other.txt' } },
  nested: { 'node/sub/deep.txt': 'deep\n', 'node/top.txt': 'top\n' },
} satisfies Record<string, TreeSpec>;

export type Shape = keyof typeof SHAPES;

export interface TypeChange {
  name: string;
  snapshot: Shape;
  now: Shape;
  /** Whether the restore needs --delete-added (what stands now is in the way and added since). */
  needsDeleteAdded: boolean;
}

const PAIRS: [Shape, Shape][] = [
  ['file', 'folder'],
  ['file', 'symlink'],
  ['symlink', 'folder'],
  ['file', 'nested'],
];

/** Every pair both ways: snapshot one shape, disk the other. */
export const TYPE_CHANGES: TypeChange[] = PAIRS.flatMap(([a, b]) =>
  [
    [a, b],
    [b, a],
  ].map(([snapshot, now]) => ({
    name: `${now} -> ${snapshot}`,
    snapshot: snapshot!,
    now: now!,
    // A file replaced by a link (or back) is one rename; anything with a folder removes what is in the way.
    needsDeleteAdded: snapshot !== 'file' && snapshot !== 'symlink' ? true : now !== 'file' && now !== 'symlink',
  })),
);

/** What stays the same around `node` in every case. */
export const AROUND: TreeSpec = { 'other.txt': 'the link points here\n', 'keep/kept.txt': 'kept\n' };

/** Replaces whatever is at `node` with a shape. */
export function becomeShape(root: string, shape: Shape): void {
  rmSync(join(root, 'node'), { recursive: true, force: true });
  writeTree(root, SHAPES[shape]);
}

export interface PathOnDisk {
  type: 'file' | 'symlink' | 'folder';
  mode: number;
  hash?: string;
  target?: string;
}

/** Everything in a folder, folders included, with types, modes, bytes' hashes and link targets. */
export function diskState(root: string, rel = ''): Record<string, PathOnDisk> {
  const out: Record<string, PathOnDisk> = {};
  for (const name of readdirSync(join(root, rel)).sort()) {
    if (name === '.git') continue;
    const path = rel ? `${rel}/${name}` : name;
    const abs = join(root, path);
    const st = lstatSync(abs);
    const mode = st.mode & 0o7777;
    if (st.isDirectory()) {
      out[path] = { type: 'folder', mode };
      Object.assign(out, diskState(root, path));
    } else if (st.isSymbolicLink()) out[path] = { type: 'symlink', mode, target: readlinkSync(abs) };
    else out[path] = { type: 'file', mode, hash: sha256(readFileSync(abs)) };
  }
  return out;
}
