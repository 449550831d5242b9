import Database from 'better-sqlite3';
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CopyPool } from '../../../electron/history/store/copyPool.js';
import { CopySlots } from '../../../electron/history/store/copySlots.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { engineWith } from '../../helpers/engineWithPool.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree, type TreeSpec } from '../../helpers/writeTree.js';

// The index backup after a first copy is taken on a copy worker from a connection of its own
// (CopyPool.backupIndex): the history process's main thread makes no backup step, and the backup
// holds the baseline just committed.

describe('the index backup after a first copy', () => {
  it('is made on a copy worker and holds the baseline', async () => {
    const pool = new CopyPool(new CopySlots(2), undefined, 2);
    const engine = engineWith(pool);
    const root = tempDir();
    const spec: TreeSpec = {};
    for (let i = 0; i < 200; i++) spec[`d${i % 8}/f${i}.txt`] = `${i}\n`;
    writeTree(root, spec);
    resetTrace();
    const opened = await engine.open(realpathSync(root), { pool });
    expect(opened.files).toBe(200);
    expect(counter('index.backups')).toBe(1);
    expect(counter('index.backupsOnWorker')).toBe(1);
    const projects = join(engine.dataDir, 'projects');
    const backup = join(projects, readdirSync(projects)[0]!, 'history.db.backup');
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    const db = new Database(backup, { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM versions').get()).toEqual({ n: 200 });
    } finally {
      db.close();
    }
  });
});
