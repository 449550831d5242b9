import { expect, it } from 'vitest';
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, startCli } from '../../helpers/runCli.js';
import { describeOnFoldFs } from '../../helpers/foldMount.js';
import { readTree, seededBytes, sha256, writeTree, type TreeSpec } from '../../helpers/writeTree.js';

// A restore across a case-only rename (`Docs/` then, `docs/` now), killed with SIGKILL while it
// writes, on a folder whose names fold: every file is old or restored, never torn, never doubled
// under two spellings, and the next open completes the restore or rolls it back whole.

const FILES = 60;
const pathOf = (i: number, folder = 'Docs') => `${folder}/File${String(i).padStart(3, '0')}.bin`;

describeOnFoldFs('a restore across a case-only rename, killed midway', (mount) => {
  it('leaves every file old or restored, under one spelling', async () => {
    const root = mkdtempSync(join(mount().dir, 'killed-'));
    const data = mkdtempSync(join(mount().dir, 'data-'));
    const original: TreeSpec = {};
    for (let i = 0; i < FILES; i++) original[pathOf(i)] = seededBytes(i, 8 * 1024 + i);
    writeTree(root, original);
    await cliJson(['open', root, '--data-dir', data]);
    renameSync(join(root, 'Docs'), join(root, 'docs'));
    const changed = new Map<string, string>();
    for (let i = 0; i < FILES; i++) {
      const bytes = seededBytes(10_000 + i, 8 * 1024 + 2 * i);
      writeFileSync(join(root, pathOf(i, 'docs')), bytes);
      changed.set(pathOf(i, 'docs'), sha256(bytes));
    }
    await cliJson(['open', root, '--data-dir', data]);

    const child = startCli(['restore', root, '--snapshot', '1', '--data-dir', data], { HINDSIGHT_BACKGROUND_CLOSE: 'on' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const first = join(root, pathOf(0, 'docs'));
    const firstOriginal = sha256(original[pathOf(0)] as Buffer);
    // Looked at until the first file holds its restored bytes; a look that meets the layer between
    // a temp's rename and its listing (ENOENT) is only a look again: the checks below read the tree.
    const restoredYet = () => {
      try {
        return sha256(readFileSync(first)) === firstOriginal;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
    };
    while (child.exitCode === null && !restoredYet()) await new Promise((r) => setImmediate(r));
    child.kill('SIGKILL');
    await exited;

    const now = readTree(root);
    let restored = 0;
    for (const [path, file] of Object.entries(now)) {
      if (/\.hindsight-/.test(path)) continue; // a temp of the killed restore, never in place of a file
      expect(path.startsWith('docs/'), path).toBe(true);
      const want = sha256(original[path.replace(/^docs\//, 'Docs/')] as Buffer);
      if (file.hash === want) restored++;
      else expect(file.hash, `${path} is neither old nor restored`).toBe(changed.get(path));
    }
    expect(restored).toBeGreaterThan(0);

    // The next open finishes the restore or rolls it back (restore/restoreRecovery.ts): the folder
    // ends all as before or all as the snapshot, still under one spelling, and its listing is the disk.
    const reopened = await cliJson<{ recoveredRestores: { outcome: string }[] }>(['open', root, '--data-dir', data]);
    expect(reopened.recoveredRestores).toHaveLength(1);
    const after = readTree(root);
    const want =
      reopened.recoveredRestores[0]!.outcome === 'completed'
        ? (path: string) => sha256(original[path.replace(/^docs\//, 'Docs/')] as Buffer)
        : (path: string) => changed.get(path);
    expect(Object.keys(after).sort()).toEqual([...changed.keys()].sort());
    for (const [path, file] of Object.entries(after)) expect(file.hash, path).toBe(want(path));
    const files = await cliJson<{ path: string; hash: string }[]>(['files', root, '--data-dir', data]);
    expect(files).toHaveLength(FILES);
    for (const f of files) expect(f.hash, f.path).toBe(after[f.path]?.hash);
  }, 240_000);
});
