import { beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import { FILE_PAGE_ROWS } from '../../electron/history/db/filePages.js';
import { printFiles } from '../../electron/cli/format/listings.js';
import { runCli, type CliResult } from '../helpers/runCli.js';
import { fileTempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';

// `files` and `log` write their answer a page at a time; what they print is what the whole list
// printed at once gives, byte for byte: the JSON the viewer gets, and the same table.

const MANY = 2 * FILE_PAGE_ROWS + 321;
// Last in path order, on the last page: the only size of 5 digits, so its column's width comes from there.
const WIDEST = 'zzz/last.txt';

function ok(result: CliResult): string {
  expect([result.code, result.stderr]).toEqual([0, '']);
  return result.stdout.toString('utf8');
}

class Collect extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString('utf8');
    done();
  }
}

describe(`files and log over ${MANY} files`, () => {
  const root = fileTempDir();
  const dataDir = fileTempDir('hindsight-data-');
  const data = ['--data-dir', dataDir];

  beforeAll(async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < MANY; i++) files[`pkg${i % 9}/mod${i % 4}/file ${i}.txt`] = 'x'.repeat(i % 300);
    files[WIDEST] = 'y'.repeat(12_345);
    writeTree(root, files);
    mkdirSync(join(root, 'empty'));
    ok(await runCli(['open', root, ...data, '--json']));
    ok(await runCli(['checkpoint', root, 'marked', ...data]));
  }, 300_000);

  it('prints the JSON of the whole list, byte for byte', async () => {
    const engine = new HistoryEngine(dataDir);
    const projectId = engine.locate(root);
    const [files, log] = [engine.files(projectId), engine.log(projectId)];
    engine.close();
    expect(files).toHaveLength(MANY + 1);
    expect(ok(await runCli(['files', root, ...data, '--json']))).toBe(`${JSON.stringify(files)}\n`);
    expect(ok(await runCli(['log', root, ...data, '--json']))).toBe(`${JSON.stringify(log)}\n`);
  });

  it('prints the table the whole list gives, then the empty folders', async () => {
    const engine = new HistoryEngine(dataDir);
    const files = engine.files(engine.locate(root));
    engine.close();
    const whole = new Collect();
    await printFiles(whole, () => [files]);
    const text = ok(await runCli(['files', root, ...data]));
    expect(text.startsWith(whole.text)).toBe(true);
    expect(text.slice(whole.text.length).split('\n')[1]).toMatch(/ empty\/$/);
    expect(whole.text.split('\n')).toHaveLength(MANY + 3);
    // The first file (0 bytes) is padded to the last page's 5-digit size.
    expect(text.split('\n')[1]).toMatch(/^\S+ {6}0 {2}/);
  });
});
