import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, finished, startCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { sha256, writeTree } from '../../helpers/writeTree.js';
import { until } from '../../helpers/until.js';

describe('hindsight watch', () => {
  it('records an edit live, one JSON line per group, and stops cleanly on SIGINT', async () => {
    const root = tempDir();
    const data = tempDir('hindsight-data-');
    writeTree(root, { 'a.txt': 'one', 'b.txt': 'b' });
    await cliJson(['open', root, '--data-dir', data]);
    const child = startCli(['watch', root, '--data-dir', data, '--json', '--quiet-ms', '100']);
    const done = finished(child);
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await until(() => out.includes('"watching":true'));
    writeFileSync(join(root, 'a.txt'), 'two');
    await until(() => out.includes('"a.txt"'));
    child.kill('SIGINT');
    const result = await done;
    expect(result.code).toBe(0);
    const versions = await cliJson<{ hash: string }[]>(['log', root, 'a.txt', '--data-dir', data]);
    expect(versions.map((v) => v.hash)).toEqual([sha256('one'), sha256('two')]);
  });
});
