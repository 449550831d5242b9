import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TEMP_PREFIX } from './storeLayout.js';
import { count } from '../trace.js';

// A temp is a write in progress; one left over when a store opens belongs to a process that died
// midway. Nothing names a temp, so removing it loses nothing. Returns how many were removed.
export function sweepTemps(blobsDir: string): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(blobsDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    rmSync(join(blobsDir, name), { force: true });
    removed++;
  }
  count('store.tempsSwept', removed);
  return removed;
}
