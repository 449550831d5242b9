import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { blobsPresent } from '../../../electron/history/git/catFileBatchCheck.js';
import { git, makeRepo, write } from './gitFixture.js';

// Which blob ids git's object database holds, asked of the real git on its standard input.

function blobId(text: string): string {
  const bytes = Buffer.from(text);
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

describe('blobsPresent', () => {
  it('answers the committed, the staged and a commit id apart from bytes git never saw', async () => {
    const root = makeRepo({ 'a.txt': 'committed\n' });
    write(root, 'b.txt', 'staged\n');
    git(root, 'add', 'b.txt');
    const head = git(root, 'rev-parse', 'HEAD');
    const asked = [blobId('committed\n'), blobId('staged\n'), blobId('never seen\n'), head, 'not an id'];
    expect(await blobsPresent(root, asked)).toEqual(new Set([blobId('committed\n'), blobId('staged\n')]));
  });

  it('asks nothing for no ids', async () => {
    const root = makeRepo({ 'a.txt': 'x\n' });
    expect(await blobsPresent(root, [])).toEqual(new Set());
  });
});
