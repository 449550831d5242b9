import { describe, expect, it, onTestFinished } from 'vitest';
import { chmodSync, lstatSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { readTree, seededBytes, writeTree, type TreeSpec } from '../../helpers/writeTree.js';

// A history holds everything a user ever wrote: the data folder Hindsight makes is 0700 and every
// file in it 0600, whatever the umask. Files' own modes live in the version rows, and a restore
// still puts them back exactly.

/** Every folder and file under dir with its permission bits, keyed by path relative to dir. */
function modesUnder(dir: string, rel = '.'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(dir, rel))) {
    const path = rel === '.' ? name : `${rel}/${name}`;
    const st = lstatSync(join(dir, path));
    out[path] = `${st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other'} ${(st.mode & 0o7777).toString(8)}`;
    if (st.isDirectory()) Object.assign(out, modesUnder(dir, path));
  }
  return out;
}

function notPrivate(dir: string): Record<string, string> {
  return Object.fromEntries(Object.entries(modesUnder(dir)).filter(([, kind]) => kind !== 'dir 700' && kind !== 'file 600'));
}

function withUmask(umask: number): void {
  const previous = process.umask(umask);
  onTestFinished(() => {
    process.umask(previous);
  });
}

function engineFor(dataDir: string): HistoryEngine {
  const engine = new HistoryEngine(dataDir);
  onTestFinished(() => engine.close());
  return engine;
}

const MODES = [0o755, 0o644, 0o600, 0o444, 0o640, 0o4755, 0o777, 0o666];

function projectWithModes(): { root: string; spec: TreeSpec } {
  const root = tempDir();
  const spec: TreeSpec = { 'a link': { link: 'small/m644' } };
  MODES.forEach((mode, i) => {
    spec[`small/m${mode.toString(8)}`] = { data: seededBytes(i + 1, 100 + i * 300), mode };
    spec[`large/m${mode.toString(8)}.bin`] = { data: seededBytes(i + 90, 70_000 + i * 1000), mode };
  });
  writeTree(root, spec);
  return { root, spec };
}

describe('the data folder is private', () => {
  for (const umask of [0o000, 0o077]) {
    it(`folders 0700 and files 0600 after a first copy, changes, restores and a checkpoint, under umask ${umask.toString(8).padStart(3, '0')}`, async () => {
      withUmask(umask);
      const dataDir = join(tempDir('hindsight-private-'), 'data');
      const { root } = projectWithModes();
      const before = readTree(root);
      const engine = engineFor(dataDir);

      const { projectId } = await engine.open(root);
      expect(engine.files(projectId).find((f) => f.path === 'small/m4755')?.mode).toBe(0o4755);
      writeFileSync(join(root, 'small/m644'), 'changed');
      writeFileSync(join(root, 'new file'), 'new');
      await engine.rescan(projectId);
      await engine.checkpoint(projectId, 'checked');
      const first = engine.versions(projectId, 'small/m644')[0]!;
      await engine.restoreFile(projectId, 'small/m644', first.versionId);
      writeFileSync(join(root, 'large/m755.bin'), 'changed');
      chmodSync(join(root, 'large/m755.bin'), 0o600);
      await engine.restoreSnapshot(projectId, 1, { deleteAdded: true });

      // The restores put back exact bytes and exact bits, whatever the umask.
      expect(readTree(root)).toEqual(before);
      expect(modesUnder(dataDir)[`projects/${engine.store(projectId).projectId}/history.db-wal`]).toBe('file 600');
      expect(notPrivate(dataDir)).toEqual({});
      engine.close();
      expect(notPrivate(dataDir)).toEqual({});
      expect(lstatSync(dataDir).mode & 0o7777).toBe(0o700);
    });
  }

  it('narrows a store an earlier Hindsight made under the umask when it opens it', async () => {
    withUmask(0o022);
    const dataDir = tempDir('hindsight-private-');
    const { root } = projectWithModes();
    const engine = engineFor(dataDir);
    const { projectId } = await engine.open(root);
    const store = engine.store(projectId);
    engine.close();
    for (const dir of [join(dataDir, 'projects'), store.storeDir, store.blobs.dir]) chmodSync(dir, 0o755);
    chmodSync(historyDbPath(store.storeDir), 0o644);

    const again = engineFor(dataDir);
    await again.open(root);
    const modes = modesUnder(dataDir);
    for (const path of ['projects', `projects/${store.projectId}`, `projects/${store.projectId}/blobs`]) expect(modes[path]).toBe('dir 700');
    expect(modes[`projects/${store.projectId}/history.db`]).toBe('file 600');
  });
});
