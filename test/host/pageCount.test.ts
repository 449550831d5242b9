import { describe, expect, it, onTestFinished } from 'vitest';
import { once } from 'node:events';
import { WebSocket } from 'ws';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import { createDispatcher } from '../../electron/history/dispatcher/dispatcher.js';
import { startHost } from '../../electron/host/hostServer.js';
import { tempDir } from '../helpers/tempDirs.js';
import { until } from '../helpers/until.js';

// The browser host tells how many pages are connected each time one comes or goes (what the idle
// stop of `hindsight view` counts): real sockets opened and closed one after the other.

describe('the host counts its pages', () => {
  it('tells 1, 2, 1, 0 as two pages connect and close', async () => {
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    const dispatcher = createDispatcher(engine, { watch: false });
    const counts: number[] = [];
    const host = await startHost({
      dispatcher,
      rendererDir: tempDir('hindsight-renderer-'),
      meta: { platform: 'linux', version: '9.9.9' },
      onPages: (n) => counts.push(n),
    });
    onTestFinished(async () => {
      await host.close();
      await dispatcher.close();
      engine.close();
    });
    const page = () => new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`);
    const a = page();
    await once(a, 'open');
    await until(() => counts.length === 1);
    const b = page();
    await once(b, 'open');
    await until(() => counts.length === 2);
    a.close();
    await until(() => counts.length === 3);
    b.close();
    await until(() => counts.length === 4);
    expect(counts).toEqual([1, 2, 1, 0]);
  });
});
