import { randomUUID } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

// The temps a restore writes beside their targets before renaming them into place. A restore
// killed midway can leave one behind; the rescan recognises them by name, removes them and never
// records them as project files, and the watcher ignores them.

const TEMP_NAME = /^\..*\.hindsight-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function restoreTempPath(absTarget: string): string {
  return join(dirname(absTarget), `.${basename(absTarget)}.hindsight-${randomUUID()}`);
}

/** Whether a project path (or a file name) is a restore temp. */
export function isRestoreTemp(path: string): boolean {
  return TEMP_NAME.test(path.slice(path.lastIndexOf('/') + 1));
}
