import { statSync } from 'node:fs';
import { resolve } from 'node:path';

// A folder named on the command line (`hindsight-app ~/projects/site`, or a second launch of the
// app) opens in the app. Flags and the app's own path are skipped; only an existing folder counts.

export function folderFromArgv(argv: readonly string[], cwd: string, skip: number): string | null {
  for (const arg of argv.slice(skip)) {
    if (arg.startsWith('-')) continue;
    const path = resolve(cwd, arg);
    try {
      if (statSync(path).isDirectory()) return path;
    } catch {
      // Not a path on this machine: some other argument.
    }
  }
  return null;
}

/** How many leading argv entries are the executable (and, unpackaged, the app folder). */
export function argvSkip(packaged: boolean): number {
  return packaged ? 1 : 2;
}
