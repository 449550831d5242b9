import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

// A cold page cache before each timed run, when this process may write drop_caches (root in a VM);
// otherwise runs are warm, and the report says so.

const DROP = '/proc/sys/vm/drop_caches';

export type CacheState = 'cold' | 'warm';

export function dropPageCache(): CacheState {
  try {
    execFileSync('sync');
    writeFileSync(DROP, '3\n');
    return 'cold';
  } catch {
    return 'warm';
  }
}
