import { expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { projectStoreDir } from '../../../electron/history/store/storeLayout.js';
import { cliJson, runCli, startCli } from '../../helpers/runCli.js';
import { describeOnFoldFs } from '../../helpers/foldMount.js';
import { killAtPoint } from '../../helpers/killAtPoint.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { sha256, writeTree } from '../../helpers/writeTree.js';

// A history recorded by a Hindsight that compared names exactly on a folder that folds them holds
// one file under two spellings: `README.md`, then `readme.md` beside it once the file was renamed
// (and `café.txt` composed, then decomposed), with every later edit recorded under both. Made here on ext4 the same way (both names there,
// edited together), brought to the fold layer by a bundle, and joined by the first open there:
// once, in one transaction (a kill before its commit leaves the history as it was).

const NFC = 'caf\u00e9.txt';
const NFD = 'cafe\u0301.txt';

interface Opened {
  projectId: string;
  repaired?: string[];
}
interface VersionRow {
  path: string;
  snapshotId: number;
  hash: string | null;
}

/** A bundle of a history holding README.md v1, then readme.md beside it, then both edited. */
async function twiceRecordedBundle(): Promise<string> {
  const exact = tempDir();
  const exactData = tempDir('hindsight-data-');
  const cli = (...args: string[]) => [...args, '--data-dir', exactData];
  writeTree(exact, { 'README.md': 'v1\n', 'other.txt': 'x\n', [NFC]: 'crème\n' });
  await cliJson(cli('open', exact));
  writeTree(exact, { 'readme.md': 'v1\n', [NFD]: 'crème\n' });
  await cliJson(cli('open', exact));
  writeTree(exact, { 'README.md': 'v2\n', 'readme.md': 'v2\n' });
  await cliJson(cli('open', exact));
  const bundle = join(tempDir(), 'history.hsb');
  await cliJson(cli('export', exact, '--to', bundle));
  return bundle;
}

/** The folder on the fold layer, holding the file as the disk spells it now, with the bundle's history. */
async function imported(dir: string, bundle: string): Promise<{ root: string; cli: (...args: string[]) => string[]; data: string }> {
  const root = mkdtempSync(join(dir, 'joined-'));
  const data = tempDir('hindsight-data-');
  const cli = (...args: string[]) => [...args, '--data-dir', data];
  writeTree(root, { 'readme.md': 'v2\n', 'other.txt': 'x\n', [NFD]: 'crème\n' });
  await cliJson(cli('import', bundle, '--as', root));
  return { root, cli, data };
}

function traceOf(file: string): Record<string, number> {
  return JSON.parse(readFileSync(file, 'utf8').trim().split('\n').at(-1)!) as Record<string, number>;
}

describeOnFoldFs('paths recorded twice under case variants, at open', (mount) => {
  it('are joined once: every version listed once under the spelling on disk', async () => {
    const { root, cli } = await imported(mount().dir, await twiceRecordedBundle());
    const opened = await runCli(cli('open', root, '--json'));
    expect(opened.code).toBe(0);
    expect(opened.stderr.toString()).toContain(
      `Joined 2 files recorded under two spellings of one name (README.md, readme.md as readme.md; ${NFD}, ${NFC} as ${NFD})`,
    );
    expect((JSON.parse(opened.stdout.toString()) as Opened).repaired).toHaveLength(1);

    const log = await cliJson<VersionRow[]>(cli('log', root, 'readme.md', '--json'));
    expect(log.map((v) => [v.path, v.hash])).toEqual([
      ['readme.md', sha256('v1\n')],
      ['readme.md', sha256('v2\n')],
    ]);
    expect(new Set(log.map((v) => v.snapshotId)).size).toBe(2);
    // Typed in the old spelling, the same file.
    expect(await cliJson<VersionRow[]>(cli('log', root, 'README.md', '--json'))).toEqual(log);
    expect((await cliJson<{ path: string }[]>(cli('files', root))).map((f) => f.path)).toEqual([NFD, 'other.txt', 'readme.md']);
    expect(await cliJson<VersionRow[]>(cli('log', root, NFC, '--json'))).toHaveLength(1);
    expect(await cliJson<unknown[]>(cli('deleted', root))).toEqual([]);

    // A second open does not look again.
    const trace = join(tempDir(), 'trace.jsonl');
    const again = await runCli(cli('open', root, '--json'), { HINDSIGHT_TRACE: trace });
    expect((JSON.parse(again.stdout.toString()) as Opened).repaired).toBeUndefined();
    expect(traceOf(trace)['spellings.scanned'] ?? 0).toBe(0);
    expect(await cliJson<VersionRow[]>(cli('log', root, 'readme.md', '--json'))).toEqual(log);
  });

  it('killed inside its transaction, leaves the history as it was, joined by the next open', async () => {
    const { root, cli, data } = await imported(mount().dir, await twiceRecordedBundle());
    const child = startCli(cli('open', root, '--json'), { HINDSIGHT_STOP_AT: 'spellings-joining' });
    await killAtPoint(child, 'spellings-joining');

    const { projectId } = (await cliJson<{ projectId: string; root: string }[]>(cli('projects')))[0]!;
    const db = new Database(join(projectStoreDir(data, projectId), 'history.db'), { readonly: true });
    try {
      const paths = db.prepare('SELECT DISTINCT path FROM versions ORDER BY path').pluck().all();
      expect(paths).toEqual(['README.md', NFD, NFC, 'other.txt', 'readme.md'].sort());
      expect(db.prepare("SELECT COUNT(*) FROM meta WHERE key = 'spellings.joined'").pluck().get()).toBe(0);
    } finally {
      db.close();
    }

    const opened = await runCli(cli('open', root, '--json'));
    expect(opened.code).toBe(0);
    expect(opened.stderr.toString()).toContain('Joined 2 files');
    const log = await cliJson<VersionRow[]>(cli('log', root, 'readme.md', '--json'));
    expect(log.map((v) => v.hash)).toEqual([sha256('v1\n'), sha256('v2\n')]);
  });
});
