import { describe, expect, it } from 'vitest';
import { appendFileSync, chownSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryIndex } from '../../../electron/history/db/historyIndex.js';
import { counter } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';

// Every page of history.db is read at open (quick_check) only when the file changed since a clean
// close of ours: a reopen of an unchanged index skips most of its cost, and any other writer
// (bytes changed in place, a copy over it) makes the next open read every page again.

function openedChecks(file: string): number {
  const before = counter('index.quickCheck');
  const index = new HistoryIndex(file);
  index.setMeta('touched', String(Date.now()));
  index.close();
  return counter('index.quickCheck') - before;
}

describe('the check of every page at open', () => {
  it('runs for a new index and after any write that is not SQLite, not after a clean close', () => {
    const file = join(tempDir(), 'history.db');
    expect(openedChecks(file)).toBe(1);
    expect(openedChecks(file)).toBe(0);
    expect(openedChecks(file)).toBe(0);

    // The same bytes written back: times change, so every page is read again.
    writeFileSync(file, readFileSync(file));
    expect(openedChecks(file)).toBe(1);
    expect(openedChecks(file)).toBe(0);

    // A note that is not ours, or a WAL left beside it, counts as a change too.
    writeFileSync(`${file}.checked`, 'something else');
    expect(openedChecks(file)).toBe(1);
    expect(openedChecks(file)).toBe(0);
    // A WAL that is not SQLite's (SQLite finds its header wrong and leaves it out), beside the note.
    appendFileSync(`${file}-wal`, Buffer.alloc(4096, 1));
    expect(openedChecks(file)).toBe(1);
  });

  it('does not run for a WAL whose owner alone was set again (SQLite as root does so at every open), beside a process holding the index', () => {
    const file = join(tempDir(), 'history.db');
    expect(openedChecks(file)).toBe(1);
    const holder = new HistoryIndex(file);
    holder.setMeta('written', 'by the process that holds it');
    // Another connection's clean close notes the index with the holder's WAL beside it.
    expect(openedChecks(file)).toBe(1);
    const wal = statSync(`${file}-wal`);
    chownSync(`${file}-wal`, wal.uid, wal.gid);
    expect(openedChecks(file)).toBe(0);
    holder.close();
  });

  it('runs after a process holding the index was killed (no clean close)', () => {
    const file = join(tempDir(), 'history.db');
    expect(openedChecks(file)).toBe(1);
    const index = new HistoryIndex(file);
    index.setMeta('written', 'by a writer that never closes');
    // Left open, as a killed process leaves it: its writes are in the WAL the note does not know.
    expect(openedChecks(file)).toBe(1);
    index.close();
  });
});
