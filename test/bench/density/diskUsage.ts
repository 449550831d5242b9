import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

// What a store costs on disk, counted as du counts it: every entry under the root (files,
// folders, symbolic links), a hard-linked file once. `apparentBytes` is `du -sb` (the sizes),
// `allocatedBytes` is `du -sB1` (the blocks the file system gave them, which small files and
// folders round up and sparse or cloned files may lower).

export interface DiskUsage {
  entries: number;
  apparentBytes: number;
  allocatedBytes: number;
}

export function diskUsage(root: string): DiskUsage {
  const usage: DiskUsage = { entries: 0, apparentBytes: 0, allocatedBytes: 0 };
  const seen = new Set<string>();
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if (stat.nlink > 1 && !stat.isDirectory()) {
      const inode = `${stat.dev}:${stat.ino}`;
      if (seen.has(inode)) return;
      seen.add(inode);
    }
    usage.entries += 1;
    usage.apparentBytes += stat.size;
    usage.allocatedBytes += stat.blocks * 512;
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return usage;
}
