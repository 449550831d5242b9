import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RACY_WINDOW_MS } from '../../electron/history/versions/rescan.js';
import { cliJson } from '../helpers/runCli.js';
import { lastTrace } from '../helpers/slowSearch.js';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';

// What a CLI reopen of an unchanged project costs besides its rescan, counted (HINDSIGHT_TRACE):
// no worker thread started, no blob folder swept, only the index statements it runs compiled
// (db/sql.ts prepares each on first use; the index has over a hundred), and config.json parsed
// once although the open reads it, edits it (lastOpenedAt) and reads it again.

const FILES = 30;

describe('a CLI reopen of an unchanged project', () => {
  it('starts no worker, sweeps no temps, prepares at most 16 statements and parses config.json once', async () => {
    const root = tempDir();
    const names = Array.from({ length: FILES }, (_, i) => `src/f${i}.txt`);
    writeTree(root, Object.fromEntries(names.map((name, i) => [name, `file ${i}\n`])));
    // A file changed (ctime) within RACY_WINDOW_MS of the scan that cached its stat is read again
    // by every rescan: the files are left older than that before the first copy.
    await sleep(RACY_WINDOW_MS + 100);
    const dataDir = tempDir('hindsight-data-');
    const trace = join(tempDir(), 'trace.jsonl');
    expect(await cliJson(['open', root, '--data-dir', dataDir], { HINDSIGHT_TRACE: trace })).toMatchObject({ files: FILES, firstCopy: true });
    expect(lastTrace(trace)['copy.workers']).toBeGreaterThan(0);

    const reopenedAt = Date.now();
    const reopened = await cliJson<object>(['open', root, '--data-dir', dataDir], { HINDSIGHT_TRACE: trace });
    expect(reopened).toMatchObject({ files: FILES, firstCopy: false });
    const reopen = lastTrace(trace);
    expect(reopen['config.parses']).toBe(1);
    expect(reopen['config.saves']).toBe(1);
    const listed = await cliJson<{ lastOpenedAt: number }[]>(['projects', '--data-dir', dataDir]);
    // The edit still records when the project was opened.
    expect(listed[0]!.lastOpenedAt).toBeGreaterThanOrEqual(reopenedAt);
    expect(reopen['rescan.paths']).toBe(FILES);
    expect(reopen['copy.workers'] ?? 0).toBe(0);
    expect(reopen['store.tempSweeps'] ?? 0).toBe(0);
    // 12 today: the project's row, the stat cache, the snapshot the rescan compares with, meta.
    expect(reopen['db.prepares']).toBeGreaterThan(0);
    expect(reopen['db.prepares']).toBeLessThanOrEqual(16);
  });
});
