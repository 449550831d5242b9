import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectIdOf } from '../../../electron/history/project/projectId.js';
import { CopyPool } from '../../../electron/history/store/copyPool.js';
import { CopySlots } from '../../../electron/history/store/copySlots.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { engineWith } from '../../helpers/engineWithPool.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// A folder new to the data folder starts its copy worker before its store is created, so the
// worker's boot overlaps the config's write and SQLite's setup; a reopen starts none.

function folder(): string {
  const root = tempDir();
  writeTree(root, { 'a.txt': 'a\n', 'b/c.txt': 'c\n' });
  return realpathSync(root);
}

describe('the first copy worker of a new folder', () => {
  it('starts before the store is created: an open whose store cannot be created has started it', async () => {
    const pool = new CopyPool(new CopySlots(2), undefined, 2);
    const engine = engineWith(pool);
    const root = folder();
    // A file where the project's store folder goes: creating the store fails.
    mkdirSync(join(engine.dataDir, 'projects'), { recursive: true });
    writeFileSync(join(engine.dataDir, 'projects', projectIdOf(root)), 'not a folder');
    resetTrace();
    await expect(engine.open(root, { pool })).rejects.toThrow();
    expect(counter('copy.prestarts')).toBe(1);
    expect(counter('copy.workers')).toBe(1);
  });

  it('is not started by a reopen', async () => {
    const pool = new CopyPool(new CopySlots(2), undefined, 2);
    const engine = engineWith(pool);
    const root = folder();
    const first = await engine.open(root, { pool });
    await engine.closeProject(first.projectId);
    await pool.close();
    resetTrace();
    await engine.open(root, { pool });
    // Files written just before the first copy are racily clean, and the rescan may copy them on a
    // worker it starts for its batch: what a reopen must not do is start one ahead of need.
    expect(counter('copy.prestarts')).toBe(0);
  });
});
