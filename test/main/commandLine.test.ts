import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { argvSkip, folderFromArgv } from '../../electron/main/commandLine.js';
import { tempDir } from '../helpers/tempDirs.js';

// A folder on the app's command line (or a second instance's) opens in the app; the executable,
// the app folder in development, flags and anything that is not an existing folder are skipped.

describe('folderFromArgv', () => {
  it('finds the first existing folder after the executable (and the app path when unpackaged)', () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, 'site'));
    writeFileSync(join(cwd, 'notes.txt'), 'x');
    expect(folderFromArgv(['/opt/Hindsight/hindsight-app', '--no-sandbox', 'notes.txt', 'site'], cwd, argvSkip(true))).toBe(join(cwd, 'site'));
    // Unpackaged, argv[1] is the app folder itself: never "opened" as a project.
    expect(folderFromArgv(['electron', cwd, '--inspect'], cwd, argvSkip(false))).toBeNull();
    expect(folderFromArgv(['electron', '.', join(cwd, 'site')], '/', argvSkip(false))).toBe(join(cwd, 'site'));
    expect(folderFromArgv(['app', 'missing-folder', '--flag=site'], cwd, 1)).toBeNull();
  });
});
