import { beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HindsightError } from '../../../shared/errors.js';
import { LOWEST_PRIORITY } from '../../../electron/history/threadPriority.js';
import { WorkerHost, type WorkerHostOptions } from '../../../electron/history/workerHost.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { fileTempDir } from '../../helpers/tempDirs.js';
import { threadNiceness } from '../../helpers/threadNiceness.js';
import type { HostedRequest } from './hostedWorker.js';

// The one host of the history process's worker threads (electron/history/workerHost.ts) and its
// worker side (serveRequests.ts), on a real worker thread running a real script: replies matched
// to their requests, a thrown HindsightError back with its code and details, a thread that exits
// mid-request failing the request with a typed error, and the lowest priority applied to the
// thread alone (read from the kernel's own record of each thread's niceness on Linux).

let script: string;

beforeAll(async () => {
  const outdir = fileTempDir('hindsight-worker-');
  const entry = fileURLToPath(new URL('./hostedWorker.ts', import.meta.url));
  await build({ entryPoints: { hostedWorker: entry }, outdir, bundle: true, platform: 'node', format: 'esm', target: 'node22', logLevel: 'warning' });
  script = join(outdir, 'hostedWorker.js');
});

function host(options: Partial<WorkerHostOptions> = {}): WorkerHost<HostedRequest, string | number, number> {
  return new WorkerHost<HostedRequest, string | number, number>(script, { name: 'The test thread', ...options });
}

describe('the worker host', () => {
  it('answers each request with its own reply, however many are open at once', async () => {
    const thread = host();
    try {
      const values = Array.from({ length: 20 }, (_, i) => `value ${i}`);
      const replies = await Promise.all(values.map((value) => thread.request({ kind: 'echo', value })));
      expect(replies).toEqual(values);
      expect(thread.pending).toBe(0);
      // A reply that comes after a later request's still goes to its own request.
      const first = thread.request({ kind: 'hold', value: 'held' });
      expect(await thread.request({ kind: 'echo', value: 'quick' })).toBe('quick');
      expect(await thread.request({ kind: 'release' })).toBe('released');
      expect(await first).toBe('held');
    } finally {
      await thread.close();
    }
  });

  it('revives an error thrown on the thread with its code and details, and a plain one with its message', async () => {
    const thread = host();
    try {
      const typed = await thread.request({ kind: 'typed' }).catch((error: unknown) => error);
      expect(typed).toBeInstanceOf(HindsightError);
      expect(typed).toMatchObject({ code: 'BLOB_MISSING', message: 'The blob is missing.', details: { hash: 'ab'.repeat(32) } });
      const plain = await thread.request({ kind: 'plain' }).catch((error: unknown) => error);
      expect(plain).not.toBeInstanceOf(HindsightError);
      expect((plain as Error).message).toBe('Something else broke.');
      // The thread lives on after a failed request.
      expect(await thread.request({ kind: 'echo', value: 'still here' })).toBe('still here');
    } finally {
      await thread.close();
    }
  });

  it('fails the open request and every later one with a typed error when the thread exits mid-request', async () => {
    const thread = host();
    try {
      const open = thread.request({ kind: 'echo', value: 'first' });
      const exited = await thread.request({ kind: 'exit' }).catch((error: unknown) => error);
      expect(await open).toBe('first');
      expect(exited).toBeInstanceOf(HindsightError);
      expect(exited).toMatchObject({ code: 'INTERNAL', message: 'The test thread stopped (exit code 3).', details: { exitCode: 3 } });
      expect(thread.stopped).toBe(true);
      await expect(thread.request({ kind: 'echo', value: 'late' })).rejects.toMatchObject({ code: 'INTERNAL' });
    } finally {
      await thread.close();
    }
  });

  it("rejects a request whose signal aborts with the signal's reason, and a closed host's open requests as cancelled", async () => {
    const thread = host();
    const stop = new AbortController();
    stop.abort();
    await expect(thread.request({ kind: 'echo', value: 'x' }, { signal: stop.signal })).rejects.toMatchObject({ name: 'AbortError' });
    const open = thread.request({ kind: 'echo', value: 'y' }).catch((error: unknown) => error);
    await thread.close();
    expect(await open).toMatchObject({ code: 'CANCELLED' });
  });

  it('tells a request the progress sent under it before its reply, and no other request', async () => {
    const thread = host();
    try {
      const told: number[] = [];
      const other: number[] = [];
      const [reply, echo] = await Promise.all([
        thread.request({ kind: 'tell', times: 5 }, { onProgress: (n) => told.push(n) }),
        thread.request({ kind: 'echo', value: 'quiet' }, { onProgress: (n) => other.push(n) }),
      ]);
      expect([reply, echo]).toEqual(['told', 'quiet']);
      expect(told).toEqual([0, 1, 2, 3, 4]);
      expect(other).toEqual([]);
    } finally {
      await thread.close();
    }
  });

  it('starts a thread with the heap limits asked, tells its start and its stop once each, and counts its messages', async () => {
    let started = 0;
    const stops: Error[] = [];
    const thread = host({ resourceLimits: { maxYoungGenerationSizeMb: 4 }, trace: 'hosted', onStarted: () => started++, onStop: (e) => stops.push(e) });
    resetTrace();
    expect(await thread.request({ kind: 'echo', value: 'a' })).toBe('a');
    expect(started).toBe(1);
    expect(thread.resourceLimits.maxYoungGenerationSizeMb).toBe(4);
    // One request out; its reply and the start message in.
    expect([counter('hosted.messagesOut'), counter('hosted.messagesIn')]).toEqual([1, 2]);
    await thread.request({ kind: 'tell', times: 3 }, { onProgress: () => undefined });
    expect([counter('hosted.messagesOut'), counter('hosted.messagesIn')]).toEqual([2, 6]);
    const exited = await thread.request({ kind: 'exit' }).catch((error: unknown) => error);
    expect(stops).toEqual([exited]);
    expect(stops[0]).toMatchObject({ code: 'INTERNAL', details: { exitCode: 3 } });
    await thread.close();
    expect(stops).toHaveLength(1);
  });

  it.runIf(process.platform === 'linux')('gives a low-priority thread the lowest niceness, and leaves this thread and a normal one alone', async () => {
    const here = threadNiceness();
    const low = host({ lowPriority: true });
    const normal = host();
    try {
      expect(await low.request({ kind: 'niceness' })).toBe(LOWEST_PRIORITY);
      expect(low.niceness).toBe(LOWEST_PRIORITY);
      expect(await normal.request({ kind: 'niceness' })).toBe(here);
      expect(normal.niceness).toBeNull();
      expect(threadNiceness()).toBe(here);
    } finally {
      await Promise.all([low.close(), normal.close()]);
    }
  });
});
