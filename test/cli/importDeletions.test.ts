import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DeletedFile } from '../../shared/contract/values.js';
import { cliJson } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';

// A history imported --as a folder that holds only some of its files: the next open records the
// others as deleted (they are in the history, not on the disk), and a restore of the snapshot
// brings them back. An import writes versions but no stat rows, so the rescan looks for the
// history's paths as well as the stat cache's.

describe('an import --as a folder that lacks some files', () => {
  it('shows them deleted after the next open, and restore --snapshot brings them back', async () => {
    const root = tempDir();
    const dataA = tempDir('hindsight-data-');
    const dataB = tempDir('hindsight-data-');
    writeTree(root, { 'a.txt': 'one', 'src/b.txt': 'two', 'src/deep/c.txt': 'three' });
    await cliJson(['open', root, '--data-dir', dataA]);
    const bundle = join(tempDir(), 'h.hsb');
    await cliJson(['export', root, '--to', bundle, '--data-dir', dataA]);

    const moved = tempDir();
    writeTree(moved, { 'a.txt': 'one' });
    await cliJson(['import', bundle, '--as', moved, '--data-dir', dataB]);
    await cliJson(['open', moved, '--data-dir', dataB]);
    const deleted = await cliJson<DeletedFile[]>(['deleted', moved, '--data-dir', dataB]);
    expect(deleted.map((d) => d.path)).toEqual(['src/b.txt', 'src/deep/c.txt']);

    await cliJson(['restore', moved, '--snapshot', '1', '--data-dir', dataB]);
    expect(readFileSync(join(moved, 'src/b.txt'), 'utf8')).toBe('two');
    expect(readFileSync(join(moved, 'src/deep/c.txt'), 'utf8')).toBe('three');
    // Once looked for, the history's paths are the stat cache's again: the next open records nothing.
    const log = await cliJson<unknown[]>(['log', moved, '--data-dir', dataB]);
    await cliJson(['open', moved, '--data-dir', dataB]);
    expect(await cliJson<unknown[]>(['log', moved, '--data-dir', dataB])).toHaveLength(log.length);
  });
});
