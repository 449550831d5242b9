import { describe, expect, it, onTestFinished } from 'vitest';
import { MessageChannel } from 'node:worker_threads';
import type { ResultMessage } from '../../../shared/contract/wire.js';
import { createDispatcher } from '../../../electron/history/dispatcher/dispatcher.js';
import { servePort } from '../../../electron/history/dispatcher/servePort.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { counter } from '../../../electron/history/trace.js';
import { SLOW_PATTERN, slowProject } from '../../helpers/slowSearch.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { until } from '../../helpers/until.js';

// The search call through the real dispatcher: the contract refuses a limit or a time that means
// nothing, and a running search ends when its window's port closes or its operationId is
// cancelled (its worker thread terminated: counted as search.cancelled).

async function opened(root: string) {
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  const dispatcher = createDispatcher(engine, { watch: false });
  onTestFinished(async () => {
    await dispatcher.close();
    engine.close();
  });
  const { projectId } = await engine.open(root, { watch: false });
  return { dispatcher, projectId };
}

/** Waits until a counter has grown by `by` (the test's own timeout bounds the wait). */
async function untilCounted(name: string, from: number, by: number): Promise<void> {
  await until(() => counter(name) - from >= by, { what: `${by} more ${name}`, everyMs: 0 });
}

describe('the search call', () => {
  it('refuses a limit below 1 and a time that is not a whole number of milliseconds', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'x\n' });
    const { dispatcher, projectId } = await opened(root);
    for (const bad of [{ limit: 0 }, { limit: -1 }, { limit: 1.5 }, { since: -1 }, { since: 1.5 }]) {
      const answer = await dispatcher.handle({ kind: 'call', id: 1, call: 'search', args: { projectId, query: 'x', ...bad } });
      expect(answer.result, JSON.stringify(bad)).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    }
  });

  it('ends a running search when the port of its window closes', async () => {
    const { dispatcher, projectId } = await opened(slowProject());
    const { port1, port2 } = new MessageChannel();
    servePort(dispatcher, port1);
    const started = counter('search.threads');
    const cancelled = counter('search.cancelled');
    port2.postMessage({ kind: 'call', id: 1, call: 'search', args: { projectId, query: SLOW_PATTERN, regex: true } });
    await untilCounted('search.threads', started, 1);
    port2.close();
    await untilCounted('search.cancelled', cancelled, 1);
  });

  it('ends a running search cancelled by its operationId, answering CANCELLED', async () => {
    const { dispatcher, projectId } = await opened(slowProject());
    const started = counter('search.threads');
    const search = dispatcher.handle({ kind: 'call', id: 1, call: 'search', args: { projectId, query: SLOW_PATTERN, regex: true, operationId: 'find-1' } });
    await untilCounted('search.threads', started, 1);
    expect((await dispatcher.handle({ kind: 'call', id: 2, call: 'cancel', args: { operationId: 'find-1' } })).result).toEqual({
      ok: true,
      value: { cancelled: true },
    });
    expect(((await search) as ResultMessage).result).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
  });
});
