import { describe, expect, it, onTestFinished } from 'vitest';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { BuildTurns } from '../../../electron/history/search/buildTurns.js';
import { SearchBuilder } from '../../../electron/history/search/searchBuilder.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { until } from '../../helpers/until.js';

// Index builds take turns: one index thread in the process at a time, whatever number of
// projects the recorder opened; a builder stopped while it waits leaves the queue at once.

async function project(files: number) {
  const root = tempDir();
  const spec: Record<string, string> = {};
  for (let i = 0; i < files; i++) spec[`f${i}.txt`] = `text ${i} of a project\n`;
  writeTree(root, spec);
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  onTestFinished(() => engine.close());
  const { projectId } = await engine.open(root);
  return engine.store(projectId);
}

describe('index builds taking turns', () => {
  it('grants one turn at a time, in the order asked, and lets a cancelled waiter go', async () => {
    const turns = new BuildTurns();
    const first = await turns.take(new AbortController().signal);
    const order: string[] = [];
    const second = turns.take(new AbortController().signal).then((release) => (order.push('second'), release));
    const leaving = new AbortController();
    const third = turns.take(leaving.signal);
    const fourth = turns.take(new AbortController().signal).then((release) => (order.push('fourth'), release));
    expect(turns.queued).toBe(3);
    leaving.abort();
    expect(await third).toBeNull();
    expect(turns.queued).toBe(2);
    first!();
    (await second)!();
    (await fourth)!();
    expect(order).toEqual(['second', 'fourth']);
    expect(turns.queued).toBe(0);
  });

  it("starts a project's index thread only on its turn, and a builder stopped while waiting reads nothing", async () => {
    const turns = new BuildTurns();
    const store = await project(20);
    const held = await turns.take(new AbortController().signal);
    const waiting = new SearchBuilder(store, { maxSize: () => 1 << 20, turns });
    waiting.poke();
    await until(() => turns.queued === 1);
    expect(waiting.batches).toBe(0);
    await waiting.stop();
    expect(turns.queued).toBe(0);
    expect(waiting.batches).toBe(0);

    const builder = new SearchBuilder(store, { maxSize: () => 1 << 20, turns });
    builder.poke();
    await until(() => turns.queued === 1);
    expect(builder.batches).toBe(0);
    held!();
    await builder.settled();
    expect(builder.looked).toBe(20);
    expect(turns.queued).toBe(0);
    await builder.stop();
  });
});
