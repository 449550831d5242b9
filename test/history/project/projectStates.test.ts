import { describe, expect, it, onTestFinished } from 'vitest';
import { rmSync } from 'node:fs';
import type { HindsightEvent } from '../../../shared/contract.js';
import { createDispatcher } from '../../../electron/history/dispatcher/dispatcher.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// A history process starting up looks at every known folder: one that is gone is reported to the
// windows (projectState) and listed as gone.

describe('the startup sweep', () => {
  it('reports a known folder that disappeared as gone', async () => {
    const dataDir = tempDir('hindsight-data-');
    const kept = tempDir();
    const doomed = tempDir();
    writeTree(kept, { 'a.txt': 'a' });
    writeTree(doomed, { 'b.txt': 'b' });
    const first = new HistoryEngine(dataDir);
    await first.open(kept);
    const { projectId } = await first.open(doomed);
    first.close();
    rmSync(doomed, { recursive: true });

    const engine = new HistoryEngine(dataDir);
    const dispatcher = createDispatcher(engine, { watch: false, sweep: true });
    onTestFinished(async () => {
      await dispatcher.close();
      engine.close();
    });
    const gone = new Promise<HindsightEvent>((resolve) => dispatcher.subscribe((e) => (e.event === 'projectState' ? resolve(e) : undefined)));
    expect(await gone).toEqual({ event: 'projectState', payload: { projectId, root: doomed, state: 'gone', detail: null } });
    const listed = await dispatcher.handle({ kind: 'call', id: 1, call: 'listProjects', args: {} });
    const states = (listed.result as { value: { root: string; state: string }[] }).value.map((p) => [p.root, p.state]);
    expect(states).toEqual(
      expect.arrayContaining([
        [kept, 'present'],
        [doomed, 'gone'],
      ]),
    );
  });

  it('lists a folder deleted while the process runs as gone, without a restart', async () => {
    const dataDir = tempDir('hindsight-data-');
    const doomed = tempDir();
    writeTree(doomed, { 'b.txt': 'b' });
    const engine = new HistoryEngine(dataDir);
    const dispatcher = createDispatcher(engine, { watch: false, sweep: false });
    onTestFinished(async () => {
      await dispatcher.close();
      engine.close();
    });
    await dispatcher.handle({ kind: 'call', id: 1, call: 'openProject', args: { path: doomed } });
    rmSync(doomed, { recursive: true });
    const listed = await dispatcher.handle({ kind: 'call', id: 2, call: 'listProjects', args: {} });
    const states = (listed.result as { value: { root: string; state: string }[] }).value.map((p) => [p.root, p.state]);
    expect(states).toEqual([[doomed, 'gone']]);
  });
});
