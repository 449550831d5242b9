import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { HistoryIndex } from '../../../electron/history/db/historyIndex.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
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
});
