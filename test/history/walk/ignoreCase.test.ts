import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { walkFolder } from '../../../electron/history/walk/walkFolder.js';
import { IgnoreMatcher } from '../../../electron/history/watch/ignoreMatcher.js';
import { describeOnFoldFs } from '../../helpers/foldMount.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// Ignore rules match case as the folder compares names, as git does (core.ignoreCase is set where
// the file system folds case): `build/` leaves `Build/` in on ext4 and out where names fold; the
// same for the exclude setting and for the watcher's matcher.

const tree = {
  '.gitignore': 'build/\n*.log\n',
  'build/out.o': 'o',
  'Build/notes.txt': 'kept on ext4',
  'run.log': 'log',
  'RUN.LOG': 'LOG',
  'Tmp/scratch.txt': 'scratch',
  'keep.txt': 'keep',
};

async function walkedPaths(root: string): Promise<string[]> {
  return (await walkFolder(root, { exclude: ['tmp/'] })).map((e) => e.path).sort();
}

describe('ignore rules on a folder that compares names exactly', () => {
  it('leave a name in another case in, as git does', async () => {
    const root = tempDir();
    writeTree(root, tree);
    expect(await walkedPaths(root)).toEqual(['.gitignore', 'Build/notes.txt', 'RUN.LOG', 'Tmp/scratch.txt', 'keep.txt']);
    const matcher = new IgnoreMatcher(root, ['tmp/']);
    expect([matcher.ignored('Build', true), matcher.ignored('RUN.LOG', false), matcher.ignored('Tmp', true)]).toEqual([false, false, false]);
  });
});

describeOnFoldFs('ignore rules on a folder whose names fold', (mount) => {
  it('leave a name in another case out', async () => {
    const root = mkdtempSync(join(mount().dir, 'ignore-'));
    // One spelling of each name: on this folder the other would be the same file.
    writeTree(root, { '.gitignore': tree['.gitignore'], 'Build/notes.txt': 'out', 'RUN.LOG': 'LOG', 'Tmp/scratch.txt': 'scratch', 'keep.txt': 'keep' });
    expect(await walkedPaths(root)).toEqual(['.gitignore', 'keep.txt']);
    const matcher = new IgnoreMatcher(root, ['tmp/']);
    expect([matcher.ignored('Build', true), matcher.ignored('RUN.LOG', false), matcher.ignored('Tmp', true)]).toEqual([true, true, true]);
  });
});
