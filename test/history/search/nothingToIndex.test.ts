import { describe, expect, it, onTestFinished } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { SearchBuilder } from '../../../electron/history/search/searchBuilder.js';
import { counter } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// Every start of a recorder pokes the search index build of every project. One whose index covers
// every blob asks no worker thread (a thread loads its modules only to find nothing to do): one
// query on the history process's thread says so.

describe('a search index build with nothing to do', () => {
  it('starts no worker thread, and starts one again once a snapshot names a new blob', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'alpha\n', 'b/c.txt': 'gamma\n' });
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    onTestFinished(() => engine.close());
    const { projectId } = await engine.open(root);
    await engine.buildSearchIndex(projectId);
    const store = engine.store(projectId);

    const batches = counter('search.workerBatches');
    const nothing = counter('search.buildsWithNothingToDo');
    const idle = new SearchBuilder(store, { maxSize: () => 1 << 20 });
    idle.poke();
    await idle.settled();
    expect(counter('search.workerBatches') - batches).toBe(0);
    expect(counter('search.buildsWithNothingToDo') - nothing).toBe(1);

    writeFileSync(join(root, 'added.txt'), 'brand new words\n');
    await engine.rescan(projectId);
    idle.poke();
    await idle.settled();
    // The new blob, then the answer that nothing is left.
    expect(counter('search.workerBatches') - batches).toBe(2);
    expect(store.index.search.blobsContaining('brand new words')).toHaveLength(1);
    await idle.stop();
  });
});
