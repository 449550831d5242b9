import { describe, expect, it, onTestFinished } from 'vitest';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { registerProject } from '../../../electron/history/config/projectEdits.js';
import { RecordAll, type RecordingReport } from '../../../electron/history/recorder/recordAll.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { until } from '../../helpers/until.js';

// The recorder of every known project, in process: what it leaves to the user.

describe('the recorder of every known project', () => {
  it('never makes a first copy: a listed project without one is reported once, and recorded once an open copied it', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a' });
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    // Listed without a history, as a first copy that was cancelled leaves it.
    await engine.config.editConfig(registerProject(root));
    const reports: RecordingReport[] = [];
    const recorder = new RecordAll(engine, { quietMs: 50, onState: (r) => reports.push(r) });
    onTestFinished(async () => {
      await recorder.stop();
      engine.close();
    });
    await recorder.start();
    const projectId = engine.locate(root);
    expect(reports).toEqual([{ projectId, root, state: 'uncopied', detail: null }]);
    expect(engine.store(projectId).index.snapshotReads.baselineId()).toBeUndefined();
    await recorder.poll();
    await recorder.settled();
    expect(reports).toHaveLength(1);

    await engine.open(root);
    await recorder.poll();
    await recorder.settled();
    expect(reports.map((r) => r.state)).toEqual(['uncopied', 'recording']);
    expect(recorder.watching()).toEqual([{ projectId, root }]);
  });

  it("starts the projects' search index builds only once every catch-up is done", async () => {
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    // The last one large enough that its catch-up's walk yields many times: a build started
    // with the first project's watch would run meanwhile.
    const many = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`d${i % 40}/f${i}.txt`, `file ${i}`]));
    for (const [name, tree] of [
      ['one', {}],
      ['two', {}],
      ['three', many],
    ] as const) {
      const root = tempDir();
      writeTree(root, { ...tree, [`${name}.txt`]: name, 'sub/more.txt': `more ${name}` });
      const { projectId } = await engine.open(root);
      await engine.buildSearchIndex(projectId);
    }
    const builds = () => counter('search.buildsWithNothingToDo') + counter('search.workerBatches');
    const before = builds();
    const workerBatches = counter('search.workerBatches');
    const atRecording: number[] = [];
    const recorder = new RecordAll(engine, { quietMs: 50, onState: (r) => r.state === 'recording' && atRecording.push(builds()) });
    onTestFinished(async () => {
      await recorder.stop();
      engine.close();
    });
    await recorder.start();
    // No build looked at its index while any project was still catching up.
    expect(atRecording).toEqual([before, before, before]);
    // Then each one does, and finds it complete.
    await until(() => builds() - before >= 3);
    expect(builds() - before).toBe(3);
    expect(counter('search.workerBatches')).toBe(workerBatches);
  });

  it('collects its garbage once when idle after its start, and once more after a change group', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a' });
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    await engine.open(root);
    let groups = 0;
    const recorder = new RecordAll(engine, { quietMs: 50, idleCollectMs: 100, onGroup: () => groups++ });
    onTestFinished(async () => {
      await recorder.stop();
      engine.close();
    });
    resetTrace();
    await recorder.start();
    await until(() => counter('recorder.idleCollections') >= 1);
    writeTree(root, { 'a.txt': 'changed' });
    await until(() => groups > 0);
    const afterGroup = counter('recorder.idleCollections');
    await until(() => counter('recorder.idleCollections') > afterGroup);
    // Collected when idle, not on a clock: nothing happens, nothing more is collected.
    await recorder.stop();
    const stopped = counter('recorder.idleCollections');
    await new Promise((r) => setTimeout(r, 300));
    expect(counter('recorder.idleCollections')).toBe(stopped);
  }, 20_000);
});
