import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { FAN_OUT_FOLDER, namesIn, TEMP_PREFIX } from './storeLayout.js';
import { count } from '../trace.js';

// A temp is a write in progress; one left over when a store opens belongs to a process that died
// midway. Nothing names a temp, so removing it loses nothing. Temps live in blobs/ (large files,
// whose hash is known only once written) and in the two-hex folders beside their blob (small
// files): both are swept. Returns how many were removed.
export function sweepTemps(blobsDir: string): number {
  const names = namesIn(blobsDir);
  let removed = sweepFolder(blobsDir, names);
  for (const name of names) {
    if (FAN_OUT_FOLDER.test(name)) removed += sweepFolder(join(blobsDir, name), namesIn(join(blobsDir, name)));
  }
  count('store.tempSweeps');
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
