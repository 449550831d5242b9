import { engineWith } from '../../helpers/engineWithPool.js';
import { expect, it } from 'vitest';
import { CopyPool } from '../../../electron/history/store/copyPool.js';
import { CopySlots } from '../../../electron/history/store/copySlots.js';
import { COPY_WORKER_NICE } from '../../../electron/history/threadPriority.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { processThreadNiceness, threadNiceness } from '../../helpers/threadNiceness.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// A copy worker lowers its own thread a little (store/copyWorker.ts) through threadPriority.ts,
// which does it on Linux only, where a thread's priority is its own: the thread that started it
// keeps its niceness. Counted from the kernel's record of every thread of this process, after a
// first copy that ran on the pool's one worker (left idle, still alive).

it.runIf(process.platform === 'linux')('gives the copy worker its niceness and leaves the thread that started it alone', async () => {
  const here = threadNiceness();
  const before = processThreadNiceness().filter((nice) => nice === COPY_WORKER_NICE).length;
  const pool = new CopyPool(new CopySlots(1), undefined, 1);
  const engine = engineWith(pool);
  const root = tempDir();
  writeTree(root, { 'a.txt': 'a', 'b/c.txt': 'c' });
  expect((await engine.open(root, { pool })).files).toBe(2);
  // At least the worker; threads it starts inherit its niceness (Linux copies it at clone).
  expect(processThreadNiceness().filter((nice) => nice === COPY_WORKER_NICE).length - before).toBeGreaterThanOrEqual(1);
  expect(threadNiceness()).toBe(here);
});

it.runIf(process.platform === 'linux')('walks a first copy at the niceness of the thread that started it, and copies lowered after', async () => {
  const pool = new CopyPool(new CopySlots(1), undefined, 1);
  const engine = engineWith(pool);
  const root = tempDir();
  writeTree(root, { 'a.txt': 'a', 'b/c.txt': 'c' });
  resetTrace();
  expect((await engine.open(root, { pool })).files).toBe(2);
  // The pool's one worker walked first, then copied: lowered only once it copied.
  expect(counter('worker.walk.niceness')).toBe(threadNiceness());
  expect(processThreadNiceness().filter((nice) => nice === COPY_WORKER_NICE).length).toBeGreaterThanOrEqual(1);
});
