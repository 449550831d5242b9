import { describe, expect, it, onTestFinished } from 'vitest';
import { readdirSync, readlinkSync } from 'node:fs';
import { createDispatcher } from '../../../electron/history/dispatcher/dispatcher.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { projectStoreDir } from '../../../electron/history/store/storeLayout.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// One record per open project, keyed by its projectId: closing the project closes everything the
// record holds. Counted for real: the file descriptors this process has open into the project's
// history store (history.db and its WAL files), and the file-system watch handles the process
// holds (libuv keeps one inotify descriptor for all of them, so the handles are what is counted).

function openDescriptors(): { store: (dir: string) => number; watchers: number } {
  const targets: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      targets.push(readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
      // closed between the listing and the look
    }
  }
  return {
    store: (dir) => targets.filter((t) => t.startsWith(`${dir}/`)).length,
    watchers: process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length,
  };
}

/** libuv drops a closed handle from the active ones in the close phase of a later loop turn. */
async function loopTurns(n = 3): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('closing a project', () => {
  it.skipIf(process.platform !== 'linux')('closes its watcher, its store and its database handle', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a', 'dir/b.txt': 'b' });
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    const dispatcher = createDispatcher(engine, { watch: true });
    onTestFinished(async () => {
      await dispatcher.close();
      engine.close();
    });
    const call = async (name: string, args: unknown) => {
      const answer = await dispatcher.handle({ kind: 'call', id: 1, call: name, args });
      if (!answer.result.ok) throw new Error(JSON.stringify(answer.result.error));
      return answer.result.value as { projectId: string };
    };
    const before = openDescriptors();

    const { projectId } = await call('openProject', { path: root });
    const storeDir = projectStoreDir(engine.dataDir, projectId);
    const open = openDescriptors();
    expect(before.store(storeDir)).toBe(0);
    expect(open.store(storeDir)).toBeGreaterThan(0); // history.db, its -wal and -shm
    expect(open.watchers).toBeGreaterThan(before.watchers);

    await call('closeProject', { projectId });
    await loopTurns();
    const closed = openDescriptors();
    expect(closed.store(storeDir)).toBe(0);
    expect(closed.watchers).toBe(before.watchers);

    // Closed is not forgotten: the next call opens the store again, and closing closes it again.
    expect((await call('log', { projectId })) as unknown).toHaveLength(1);
    expect(openDescriptors().store(storeDir)).toBeGreaterThan(0);
    await call('closeProject', { projectId });
    expect(openDescriptors().store(storeDir)).toBe(0);
  });
});
