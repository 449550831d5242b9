import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectIdOf } from '../../../electron/history/project/projectId.js';
import { SWEEP_EVERY_MS } from '../../../electron/history/store/sweepDue.js';
import { tempsSweptPath, writerLockPath } from '../../../electron/history/store/storeLayout.js';
import { cliJson } from '../../helpers/runCli.js';
import { lastTrace } from '../../helpers/slowSearch.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// Sweeping the blob temps reads every blob folder (257): a CLI reopen of an unchanged project did
// it every time. Counted here as the sweeps each real CLI process made (HINDSIGHT_TRACE).

function project(): { root: string; dataDir: string; storeDir: string } {
  const root = tempDir();
  writeTree(root, { 'a.txt': 'a\n', 'src/b.txt': 'b\n' });
  const dataDir = tempDir('hindsight-data-');
  return { root, dataDir, storeDir: join(dataDir, 'projects', projectIdOf(root)) };
}

/** Opens the folder in a CLI process; answers how many temp sweeps that process made. */
async function openCounting(root: string, dataDir: string): Promise<number> {
  const trace = join(tempDir(), 'trace.jsonl');
  await cliJson(['open', root, '--data-dir', dataDir], { HINDSIGHT_TRACE: trace });
  return lastTrace(trace)['store.tempSweeps'] ?? 0;
}

/** A temp as a process killed while writing a small blob leaves it. */
function leaveTemp(storeDir: string): string {
  const folder = join(storeDir, 'blobs', 'ab');
  mkdirSync(folder, { recursive: true });
  const temp = join(folder, 'incoming-left-by-a-killed-process');
  writeFileSync(temp, 'half a file');
  return temp;
}

describe('the blob temps sweep', () => {
  it('runs on a first open, not on the reopens after it, and again once a day has passed', async () => {
    const { root, dataDir, storeDir } = project();
    expect(await openCounting(root, dataDir)).toBe(1);
    expect(existsSync(tempsSweptPath(storeDir))).toBe(true);
    expect(await openCounting(root, dataDir)).toBe(0);
    expect(await openCounting(root, dataDir)).toBe(0);

    const temp = leaveTemp(storeDir);
    const dayAgo = (Date.now() - SWEEP_EVERY_MS - 60_000) / 1000;
    utimesSync(tempsSweptPath(storeDir), dayAgo, dayAgo);
    expect(await openCounting(root, dataDir)).toBe(1);
    expect(existsSync(temp)).toBe(false);
    expect(await openCounting(root, dataDir)).toBe(0);
  });

  it('runs at once when the writer lock of a dead process is taken over, whatever the stamp says', async () => {
    const { root, dataDir, storeDir } = project();
    expect(await openCounting(root, dataDir)).toBe(1);
    const temp = leaveTemp(storeDir);
    // The lock a killed writer leaves: its pid names no live process.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(writerLockPath(storeDir), JSON.stringify({ pid: dead, host: hostname(), token: 'killed', at: Date.now() }));
    expect(await openCounting(root, dataDir)).toBe(1);
    expect(existsSync(temp)).toBe(false);
    expect(existsSync(writerLockPath(storeDir))).toBe(false);
  });

  it('runs when the stamp is missing or dated ahead of the clock', async () => {
    const { root, dataDir, storeDir } = project();
    await openCounting(root, dataDir);
    const ahead = (Date.now() + SWEEP_EVERY_MS) / 1000;
    utimesSync(tempsSweptPath(storeDir), ahead, ahead);
    expect(await openCounting(root, dataDir)).toBe(1);
    rmSync(tempsSweptPath(storeDir));
    expect(await openCounting(root, dataDir)).toBe(1);
    expect(await openCounting(root, dataDir)).toBe(0);
  });
});
