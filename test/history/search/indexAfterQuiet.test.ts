import { describe, expect, it, onTestFinished } from 'vitest';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { startBackgroundWork } from '../../../electron/history/registry/backgroundWork.js';
import { OpenProject } from '../../../electron/history/registry/openProject.js';
import { counter } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, writeTree, type TreeSpec } from '../../helpers/writeTree.js';
import { until } from '../../helpers/until.js';

// A recorder starts a project's search index build only once the project's writes have stopped
// for a while: a storm's groups are written with no index thread beside them. Counted: the build
// commits no batch while writes keep coming, and builds once they stop.

const QUIET_MS = 1500;

async function recordedProject() {
  const root = tempDir();
  const spec: TreeSpec = {};
  for (let i = 0; i < 40; i++) spec[`d${i % 4}/f${i}.txt`] = `file ${i}\n${seededBytes(i, 200).toString('hex')}\n`;
  writeTree(root, spec);
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  const { projectId } = await engine.open(root);
  const record = new OpenProject(engine.store(projectId));
  onTestFinished(async () => {
    await record.searchBuilder?.stop();
    engine.close();
  });
  return record;
}

describe('the index build after a storm', () => {
  it('starts no thread while the project writes, and builds once its writes have stopped', async () => {
    const record = await recordedProject();
    const deferredBefore = counter('search.buildsDeferred');
    const threadsBefore = counter('search.indexThreads');
    await record.serial(async () => undefined);
    startBackgroundWork(record, { searchMaxFileSize: () => 1 << 20, compactInBackground: false, indexAfterQuietMs: QUIET_MS });
    const builder = record.searchBuilder!;
    // Writes a storm's groups would make, each well within the quiet window of the one before.
    for (let i = 0; i < 10; i++) {
      await record.serial(async () => undefined);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(counter('search.indexThreads') - threadsBefore).toBe(0);
    }
    expect(counter('search.buildsDeferred') - deferredBefore).toBeGreaterThan(0);
    await until(() => builder.batches > 0);
    await builder.settled();
    expect(builder.added).toBe(40);
    expect(counter('search.indexThreads') - threadsBefore).toBe(1);
  });
});
