import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { HistoryIndex } from '../../../electron/history/db/historyIndex.js';
import { SCHEMA_VERSION } from '../../../electron/history/db/migrations.js';
import { projectIdOf } from '../../../electron/history/project/projectId.js';
import { historyDbPath, projectStoreDir } from '../../../electron/history/store/storeLayout.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { stoppedAtPoint } from '../../helpers/killAtPoint.js';
import { finished, startCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';

// Two processes opening a new history together (the CLI's first open, and a recorder told of the
// project by config.json): switching the new file to WAL needs it to itself, and SQLite answers
// SQLITE_BUSY at once, without its busy handler, while the other holds it open. The open waits.

const root = fileURLToPath(new URL('../../..', import.meta.url));

// Opens the new file and holds its write lock for 300 ms, as the other process's own switch does.
const HOLD = `
const Database = require('better-sqlite3');
const db = new Database(process.argv[1]);
db.exec('BEGIN IMMEDIATE');
console.log('held');
setTimeout(() => { db.exec('COMMIT'); db.close(); }, 300);
`;

describe('two processes opening one new history', () => {
  it('waits for the other to let go of the new file instead of failing with SQLITE_BUSY', async () => {
    const file = join(tempDir(), 'history.db');
    const holder = spawn(process.execPath, ['-e', HOLD, file], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = (await once(createInterface({ input: holder.stdout! }), 'line')) as [string];
    expect(line).toBe('held');
    resetTrace();
    const index = new HistoryIndex(file);
    index.close();
    expect(counter('index.walSwitchRetries')).toBeGreaterThan(0);
    const [code] = (await once(holder, 'exit')) as [number];
    expect(code).toBe(0);
  });

  // The CLI's `open` failed with "vtable constructor failed: search_text (SQLITE_SCHEMA)" beside a
  // `watch --all` that was making the same new history a migration at a time. A statement naming
  // a virtual table (the open's quick_check names them all) connects it while it is prepared, and
  // FTS5's connect reads the table's config with a statement of its own: when the file's schema is
  // newer than the one the connection loaded, that inner statement cannot reload it mid-prepare
  // and fails with SQLITE_SCHEMA. SQLite prepares the outer statement once more with the schema
  // reloaded, so one change is survived, a second within the same prepare is not. The table
  // `schema_wait`, named first, waits while it is connected for the other process's next change
  // (one that leaves search_text in place), so each attempt of the prepare meets one, as a
  // loaded machine let happen by chance.
  it('sees a new history made whole by the other, so a statement naming search_text never meets its schema changing', async () => {
    const data = tempDir('hindsight-data-');
    const folder = realpathSync(tempDir());
    writeFileSync(join(folder, 'a.txt'), 'a');
    const child = startCli(['open', folder, '--data-dir', data], { HINDSIGHT_STOP_AT: 'schema-migrated' });
    const done = finished(child);
    await stoppedAtPoint(child, 'schema-migrated');
    const file = historyDbPath(projectStoreDir(data, projectIdOf(folder)));
    const watcher = new Database(file, { readonly: true });
    const noRows = () => ({ columns: ['x'], *rows() {} });
    const maker = new Database(file);
    connectedBy(maker, 'schema_wait', noRows);
    maker.exec('CREATE VIRTUAL TABLE schema_wait USING schema_wait()');
    maker.close();
    const db = new Database(file);
    try {
      db.pragma('busy_timeout = 5000');
      connectedBy(db, 'schema_wait', () => {
        untilSchemaChangesOrEnds(watcher, child.pid!);
        return noRows();
      });
      const seen = db.pragma('user_version', { simple: true });
      child.kill('SIGCONT');
      expect(db.prepare('SELECT count(*) AS n FROM schema_wait, search_text').get()).toEqual({ n: 0 });
      expect(seen).toBe(SCHEMA_VERSION);
    } finally {
      db.close();
      watcher.close();
    }
    const result = await done;
    expect(result.stderr).not.toMatch(/SQLITE_SCHEMA/);
    expect(result.code).toBe(0);
  });
});

/**
 * A virtual table module whose `connect` runs at each connect of a table made with it (better-sqlite3's
 * factory form, which its type declarations leave out).
 */
function connectedBy(db: Database.Database, name: string, connect: () => TableOptions): void {
  db.table(name, connect as unknown as TableOptions);
}

type TableOptions = Parameters<Database.Database['table']>[1];

/**
 * Blocks until the schema of `reader`'s file changes to one holding search_text, or process `pid`
 * has ended (a zombie or gone).
 */
function untilSchemaChangesOrEnds(reader: Database.Database, pid: number): void {
  const version = () => reader.pragma('schema_version', { simple: true }) as number;
  const searchable = () => reader.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'search_text'").get() !== undefined;
  const before = version();
  const deadline = Date.now() + 30_000;
  while ((version() === before || !searchable()) && !ended(pid)) {
    if (Date.now() > deadline) throw new Error(`waited 30 s for the schema to change or process ${pid} to end`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
  }
}

function ended(pid: number): boolean {
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}
