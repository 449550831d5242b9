import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TEMP_PREFIX } from './storeLayout.js';
import { count } from '../trace.js';

// A temp is a write in progress; one left over when a store opens belongs to a process that died
// midway. Nothing names a temp, so removing it loses nothing. Temps live in blobs/ (large files,
// whose hash is known only once written) and in the two-hex folders beside their blob (small
// files): both are swept. Returns how many were removed.
export function sweepTemps(blobsDir: string): number {
  const names = namesIn(blobsDir);
  let removed = sweepFolder(blobsDir, names);
  for (const name of names) {
    if (/^[0-9a-f]{2}$/.test(name)) removed += sweepFolder(join(blobsDir, name), namesIn(join(blobsDir, name)));
  }
  count('store.tempsSwept', removed);
  return removed;
}

function sweepFolder(dir: string, names: readonly string[]): number {
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    rmSync(join(dir, name), { force: true });
    removed++;
  }
  return removed;
}

function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}
