import { chmodSync, mkdirSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { fsError } from '../fsErrors.js';
import { fsArg } from '../paths/fsPath.js';

// The folders a restore makes for the files it writes. Each is made as the umask says, and once
// every file is in place, set to the mode recorded for it at the snapshot restored, whatever the
// umask: deepest first, so a folder recorded without write or search permission is set only
// after everything below it.

export class FolderMaker {
  private readonly made: string[] = [];
  private readonly present = new Set<string>();

  constructor(
    private readonly root: string,
    /** A folder's recorded mode by project path; undefined leaves it as made. */
    private readonly modeOf: (path: string) => number | undefined,
  ) {}

  /** Makes a folder of the project and its missing parents. */
  make(dir: string): void {
    if (this.present.has(dir)) return;
    const first = mkdirSync(fsArg(dir), { recursive: true });
    if (first !== undefined) {
      // Node names the first folder made as a string, which loses bytes that are not UTF-8:
      // its depth is what tells which of dir's parents were made.
      const depth = first.split('/').length;
      for (let at = dir; at.split('/').length >= depth; at = dirname(at)) this.made.push(at);
    }
    this.present.add(dir);
  }

  /** Sets each folder made to its recorded mode; returns the ones that could not be set. */
  finish(): { path: string; error: Error }[] {
    const failures: { path: string; error: Error }[] = [];
    const deepestFirst = [...new Set(this.made)].sort((a, b) => b.length - a.length);
    for (const dir of deepestFirst) {
      const path = relative(this.root, dir).split(sep).join('/');
      const mode = this.modeOf(path);
      if (mode === undefined) continue;
      try {
        chmodSync(fsArg(dir), mode);
      } catch (error) {
        failures.push({ path, error: fsError('set the permissions of the folder', path, error, 'RESTORE_FAILED') });
      }
    }
    this.made.length = 0;
    return failures;
  }
}
