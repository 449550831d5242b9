import { describe, expect, it, onTestFinished } from 'vitest';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { registerProject } from '../../../electron/history/config/projectEdits.js';
import { RecordAll, type RecordingReport } from '../../../electron/history/watch/recordAll.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

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
    expect(engine.store(projectId).index.baselineId()).toBeUndefined();
    await recorder.poll();
    await recorder.settled();
    expect(reports).toHaveLength(1);

    await engine.open(root);
    await recorder.poll();
    await recorder.settled();
    expect(reports.map((r) => r.state)).toEqual(['uncopied', 'recording']);
    expect(recorder.watching()).toEqual([{ projectId, root }]);
  });
});
