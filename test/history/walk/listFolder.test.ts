import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { walkFolder } from '../../../electron/history/walk/walkFolder.js';
import { counter } from '../../../electron/history/trace.js';
import { displayPath } from '../../../shared/fileNameBytes.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// The walk lists folders as strings, and as bytes only a folder holding a name that is not UTF-8
// (or one in the escape range): those keep their exact bytes, the rest cost no Buffer per name.

describe('the walk lists folders as strings', () => {
  it('lists a UTF-8 tree without a listing as bytes', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a', 'é/ü.txt': 'u', 'x/y/z.txt': 'z' });
    const asBytes = counter('walk.readdirAsBytes');
    const entries = await walkFolder(root);
    expect(entries.map((e) => e.path)).toEqual(['a.txt', 'x/y/z.txt', 'é/ü.txt']);
    expect(counter('walk.readdirAsBytes') - asBytes).toBe(0);
  });

  it('lists as bytes only the folder holding a name that is not UTF-8, which keeps its bytes', async () => {
    const root = tempDir();
    writeTree(root, { 'plain/a.txt': 'a', 'odd/b.txt': 'b' });
    writeFileSync(Buffer.concat([Buffer.from(`${root}/odd/f`), Buffer.from([0xff]), Buffer.from('.t')]), 'ff');
    mkdirSync(`${root}/odd/\u{10FF41}`);
    writeFileSync(`${root}/odd/\u{10FF41}/in.txt`, 'escape range');
    const asBytes = counter('walk.readdirAsBytes');
    const entries = await walkFolder(root);
    expect(entries.map((e) => displayPath(e.path)).sort()).toEqual(['odd/\\xF4\\x8F\\xBD\\x81/in.txt', 'odd/b.txt', 'odd/f\\xFF.t', 'plain/a.txt']);
    expect(counter('walk.readdirAsBytes') - asBytes).toBe(1);
  });
});
