import { describe, expect, it } from 'vitest';
import { closeSync, fstatSync, openSync } from 'node:fs';
import { join } from 'node:path';
import {
  backgroundCloseWanted,
  BackgroundCloser,
  InlineCloser,
  makeCloser,
  MAX_IN_FLIGHT,
  MAX_QUEUED,
  type CloseFunction,
} from '../../../electron/history/restore/backgroundCloser.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';

function openFiles(count: number): number[] {
  const dir = tempDir();
  return Array.from({ length: count }, (_, i) => openSync(join(dir, `f${i}`), 'w'));
}

describe('the background closer', () => {
  it('keeps at most 4 closes in flight and at most 384 queued, and runs what follows only after each close', async () => {
    // Closes that finish only when the test lets them: real closes, held back, as a slow file
    // system holds them.
    const held: (() => void)[] = [];
    const slowClose: CloseFunction = (fd, callback) => held.push(() => callback((closeSync(fd), null)));
    const closer = new BackgroundCloser({ close: slowClose });
    const fds = openFiles(1000);
    const after: number[] = [];
    resetTrace();
    let queuedAll = false;
    const producing = (async () => {
      for (const [i, fd] of fds.entries()) await closer.close(fd, `f${i}`, () => after.push(i));
      queuedAll = true;
    })();
    await new Promise((r) => setImmediate(r));
    expect(held).toHaveLength(MAX_IN_FLIGHT);
    expect(queuedAll).toBe(false); // the producer waits for room: the queue is bounded
    while (held.length > 0) {
      held.shift()!();
      await new Promise((r) => setImmediate(r));
    }
    await producing;
    await closer.drain();
    expect(closer.peakInFlight).toBe(MAX_IN_FLIGHT);
    expect(closer.peakQueued).toBe(MAX_QUEUED);
    expect(after).toHaveLength(1000);
    expect(closer.failures).toEqual([]);
    expect(counter('close.background')).toBe(1000);
    for (const fd of fds) expect(() => fstatSync(fd)).toThrow(/EBADF/);
  });

  it('keeps every failed close, runs its cleanup instead of what follows, and goes on with the rest', async () => {
    let n = 0;
    const close: CloseFunction = (fd, callback) => {
      closeSync(fd);
      callback(++n % 3 === 0 ? Object.assign(new Error('EIO: close failed'), { code: 'EIO' }) : null);
    };
    for (const closer of [new BackgroundCloser({ close }), new InlineCloser(close)]) {
      n = 0;
      const ok: string[] = [];
      const cleaned: string[] = [];
      for (const [i, fd] of openFiles(9).entries())
        await closer.close(
          fd,
          `f${i}`,
          () => ok.push(`f${i}`),
          () => cleaned.push(`f${i}`),
        );
      await closer.drain();
      expect(closer.failures.map((f) => f.path)).toEqual(['f2', 'f5', 'f8']);
      expect(cleaned).toEqual(['f2', 'f5', 'f8']);
      expect(ok).toHaveLength(6);
    }
  });

  it('is on by default on Windows only, and forced by HINDSIGHT_BACKGROUND_CLOSE', () => {
    expect(backgroundCloseWanted({}, 'win32')).toBe(true);
    expect(backgroundCloseWanted({}, 'linux')).toBe(false);
    expect(backgroundCloseWanted({ HINDSIGHT_BACKGROUND_CLOSE: 'on' }, 'linux')).toBe(true);
    expect(backgroundCloseWanted({ HINDSIGHT_BACKGROUND_CLOSE: 'off' }, 'win32')).toBe(false);
    // The setting decides where the environment says nothing; the environment wins over it.
    expect(backgroundCloseWanted({}, 'linux', 'on')).toBe(true);
    expect(backgroundCloseWanted({}, 'win32', 'off')).toBe(false);
    expect(backgroundCloseWanted({ HINDSIGHT_BACKGROUND_CLOSE: 'off' }, 'linux', 'on')).toBe(false);
    expect(makeCloser({ background: true })).toBeInstanceOf(BackgroundCloser);
    expect(makeCloser({ background: false })).toBeInstanceOf(InlineCloser);
  });
});
