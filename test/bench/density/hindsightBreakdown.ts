import { lstatSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';

// Where Hindsight's bytes are, read from its data folder's layout (docs/ARCHITECTURE.md, "The
// history store"): blob files kept raw, blob files kept compressed (`.zst`), and everything else
// (history.db and its backup, config). Apparent bytes, as du -sb; folders are not counted.

export interface StoreBreakdown {
  rawBlobs: { files: number; bytes: number };
  compressedBlobs: { files: number; bytes: number };
  other: { files: number; bytes: number };
}

const BLOB_NAME = /^[0-9a-f]{64}(\.zst)?$/;

export function hindsightBreakdown(dataDir: string): StoreBreakdown {
  const breakdown: StoreBreakdown = { rawBlobs: { files: 0, bytes: 0 }, compressedBlobs: { files: 0, bytes: 0 }, other: { files: 0, bytes: 0 } };
  const visit = (path: string, inBlobs: boolean) => {
    const stat = lstatSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path)) visit(join(path, name), inBlobs || name === 'blobs');
      return;
    }
    const name = basename(path);
    const kind = !inBlobs || !BLOB_NAME.test(name) ? breakdown.other : name.endsWith('.zst') ? breakdown.compressedBlobs : breakdown.rawBlobs;
    kind.files += 1;
    kind.bytes += stat.size;
  };
  visit(dataDir, false);
  return breakdown;
}
