import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenResult } from '../../../shared/history.js';
import { cliJson, startCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { readTree, seededBytes, sha256, writeTree, type TreeSpec } from '../../helpers/writeTree.js';

// A real `hindsight restore` child process, killed with SIGKILL while it writes: every file must
// be either its old bytes or its restored bytes, never a mix, and the next open rolls the restore
// back (it was not recorded) before its catch-up: every file holds its old bytes again, no restore
// temp is left, and the history lists the tree as it is.

const FILES = 3000;

function pathOf(i: number): string {
  return `d${String(i % 30).padStart(2, '0')}/f${String(i).padStart(4, '0')}.bin`;
}

describe('a restore killed midway', () => {
  it('leaves every file either old or new, never torn', async () => {
    const root = tempDir();
    const data = tempDir('hindsight-data-');
    const original: TreeSpec = {};
    for (let i = 0; i < FILES; i++) original[pathOf(i)] = seededBytes(i, 16 * 1024 + (i % 512));
    writeTree(root, original);
    await cliJson(['open', root, '--data-dir', data]);
    const changed: Record<string, string> = {};
    for (let i = 0; i < FILES; i++) {
      const bytes = seededBytes(100_000 + i, 16 * 1024 + (i % 700));
      writeFileSync(join(root, pathOf(i)), bytes);
      changed[pathOf(i)] = sha256(bytes);
    }

    const child = startCli(['restore', root, '--snapshot', '1', '--data-dir', data], { HINDSIGHT_BACKGROUND_CLOSE: 'on' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    // Kill it as soon as the first file (in the order the restore writes) is back.
    const first = join(root, pathOf(0));
    const firstOriginal = sha256(original[pathOf(0)] as Buffer);
    while (child.exitCode === null && sha256(readFileSync(first)) !== firstOriginal) await new Promise((r) => setImmediate(r));
    child.kill('SIGKILL');
    await exited;

    let old = 0;
    let restored = 0;
    const now = readTree(root);
    for (const [path, file] of Object.entries(now)) {
      if (/\.hindsight-/.test(path)) continue; // a temp of the killed restore: never in place of a file
      const want = sha256(original[path] as Buffer);
      if (file.hash === want) restored++;
      else {
        expect(file.hash, `${path} is neither old nor new`).toBe(changed[path]);
        old++;
      }
    }
    expect(old + restored).toBe(FILES);
    expect(restored).toBeGreaterThan(0);
    console.log(`killed restore: ${restored} files restored, ${old} still old`);

    // The next open (the next writer) puts back every file the killed restore wrote and removes
    // its temps, which its journal names, then records the tree as it stands: as before the restore.
    const opened = await cliJson<OpenResult>(['open', root, '--data-dir', data]);
    expect(opened.recoveredRestores).toMatchObject([{ outcome: 'rolled-back', leftAlone: [] }]);
    expect(opened.recoveredRestores[0]!.putBack).toHaveLength(restored);
    const after = readTree(root);
    expect(Object.keys(after).filter((p) => /\.hindsight-/.test(p))).toEqual([]);
    for (const [path, file] of Object.entries(after)) expect(file.hash, path).toBe(changed[path]);
    const files = await cliJson<{ path: string; hash: string }[]>(['files', root, '--data-dir', data]);
    expect(files).toHaveLength(FILES);
    for (const f of files) expect(f.hash).toBe(changed[f.path]);
    for (const dir of readdirSync(root)) expect(readdirSync(join(root, dir)).length).toBe(100);
  }, 240_000); // 3,000 files through three CLI runs: minutes on a loaded machine
});
