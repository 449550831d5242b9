import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CopyPool } from '../../../electron/history/store/copyPool.js';
import { CopySlots } from '../../../electron/history/store/copySlots.js';
import { fileEntries } from '../../../electron/history/store/fileEntries.js';
import { CopyCancelled, fileRegularFile } from '../../../electron/history/store/fileIntoStore.js';
import { walkFolder } from '../../../electron/history/walk/walkFolder.js';
import { cliJson, finished, startCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, sha256, writeTree } from '../../helpers/writeTree.js';
import { until } from '../../helpers/until.js';
import { BlobStore } from '../../../electron/history/store/blobStore.js';

// A copy never waits on something that is not a regular file, and a cancelled copy stops at its
// next file or piece. Each of these hung (or ran to the end) before: a FIFO opened for reading
// blocks until a writer comes, and a copy worker or the walk would wait for it forever.

function mkfifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

describe('a copy that meets a FIFO', () => {
  it('skips a file that became a FIFO after the walk, and files everything else', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a', 'b.txt': 'b', 'c/d.txt': 'd' });
    const entries = await walkFolder(realpathSync(root));
    rmSync(join(root, 'b.txt'));
    mkfifo(join(root, 'b.txt'));
    const pool = new CopyPool(new CopySlots(1));
    try {
      const filed = await fileEntries(entries, { blobs: new BlobStore(tempDir('hindsight-blobs-')), pool });
      expect(filed.skipped).toEqual(['b.txt']);
      expect(filed.versions.map((v) => [v.path, v.hash])).toEqual([
        ['a.txt', sha256('a')],
        ['c/d.txt', sha256('d')],
      ]);
    } finally {
      await pool.close();
    }
  }, 15_000);

  it('reads a .gitignore linked to a FIFO without waiting for a writer (a whole first copy, in a child process)', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a', 'sub/b.txt': 'b', 'sub/.gitignore': { link: '../pipe' } });
    mkfifo(join(root, 'pipe'));
    const child = startCli(['open', root, '--data-dir', tempDir('hindsight-data-'), '--json']);
    const done = finished(child);
    // Only if it hangs: the test fails on its timeout instead of leaving the child behind.
    const guard = setTimeout(() => child.kill('SIGKILL'), 12_000);
    const result = await done;
    clearTimeout(guard);
    expect(result.signal).toBeNull();
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout.toString())).toMatchObject({ files: 3, firstCopy: true }); // the link is recorded as a link; the FIFO is no file
  }, 15_000);
});

describe('a cancelled copy', () => {
  it('stops a large file between pieces and leaves no temp behind', () => {
    const root = tempDir();
    writeTree(root, { 'big.bin': seededBytes(7, 3 * 1024 * 1024) });
    const blobsDir = tempDir('hindsight-blobs-');
    let asked = 0;
    const cancelled = () => ++asked > 1; // the first piece goes through, the second is refused
    expect(() => fileRegularFile(join(root, 'big.bin'), blobsDir, { cloneMode: 'never', cancelled })).toThrow(CopyCancelled);
    expect(asked).toBe(2);
    expect(readdirSync(blobsDir)).toEqual([]);
  });

  it('never starts a batch whose operation was cancelled while it waited for a slot', async () => {
    const pool = new CopyPool(new CopySlots(1));
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    try {
      await expect(pool.run({ blobsDir: tempDir(), cloneMode: 'never', files: [] }, 0, controller.signal)).rejects.toThrow('stop');
      expect(pool.slots.busy).toBe(0);
    } finally {
      await pool.close();
    }
  });
});

function blobCount(blobsDir: string): number {
  try {
    return readdirSync(blobsDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .reduce((sum, d) => sum + readdirSync(join(blobsDir, d.name)).filter((n) => !n.startsWith('incoming-')).length, 0);
  } catch {
    return 0;
  }
}

/** Waits until /proc says the process is in `state` (T: stopped by SIGSTOP). */
async function waitForState(pid: number, state: string): Promise<void> {
  const inState = () => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith(state);
  };
  await until(inState, { what: `process ${pid} in state ${state}`, everyMs: 1 });
}

describe('hindsight open stopped by a signal', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal} stops a first copy at once: conventional exit code ${code}, no baseline, and the next open finishes it`, async () => {
      const root = tempDir();
      const spec: Record<string, Buffer> = {};
      for (let i = 0; i < 3000; i++) spec[`s/d${i % 40}/f${i}.txt`] = seededBytes(i + 1, 200 + (i % 3000));
      writeTree(root, spec);
      const dataDir = tempDir('hindsight-data-');
      const child = startCli(['open', root, '--data-dir', dataDir, '--json'], { HINDSIGHT_COPY_CONCURRENCY: '1' });
      const done = finished(child);
      const storeDirs = () => {
        try {
          return readdirSync(join(dataDir, 'projects'));
        } catch {
          return [];
        }
      };
      let blobsDir = '';
      const blobsStored = () => {
        const [store] = storeDirs();
        if (store) blobsDir = join(dataDir, 'projects', store, 'blobs');
        return blobsDir !== '' && blobCount(blobsDir) > 30;
      };
      await until(blobsStored, { what: 'more than 30 blobs stored', everyMs: 5 });
      // Frozen while the blobs are counted, so the count is the one the signal meets however
      // loaded the machine is: the signal waits, pending, until the process runs again.
      child.kill('SIGSTOP');
      await waitForState(child.pid!, 'T');
      const before = blobCount(blobsDir);
      child.kill(signal);
      child.kill('SIGCONT');
      const result = await done;
      expect(result.code, result.stderr).toBe(code);
      expect(result.stderr).toContain(`stopped by ${signal}`);
      expect(result.stdout.toString()).toBe('');
      // Stopped, not finished: at most the batch on the worker and the one it was handed meanwhile
      // (32 files each) were copied after the signal.
      expect(blobCount(blobsDir) - before).toBeLessThanOrEqual(64);

      // Nothing was recorded: the next open is still the first copy, and it completes.
      const reopened = await cliJson<{ files: number; firstCopy: boolean }>(['open', root, '--data-dir', dataDir]);
      expect(reopened).toMatchObject({ files: 3000, firstCopy: true });
    });
  }
});
