import { describe, expect, it, onTestFinished } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { counter } from '../../../electron/history/trace.js';
import { RecordAll } from '../../../electron/history/recorder/recordAll.js';
import { RecordingSwitch } from '../../../electron/history/recorder/recordingSwitch.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { until } from '../../helpers/until.js';
import { writeTree } from '../../helpers/writeTree.js';

// The recorder's answer to "flush project P" (what its socket asks, recorderEndpoint.ts), in
// process: every event heard for P is written at once, not after the quiet window (a minute
// here); a project it does not record, and every project while the user's pause holds, is "not
// watching", so the command looks at the folder itself.

async function recording() {
  const root = tempDir();
  writeTree(root, { 'a.txt': 'one\n' });
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  const { projectId } = await engine.open(root);
  const heard: string[][] = [];
  const switched = new RecordingSwitch(engine, {
    makeRecorder: (catchUpAfter) => new RecordAll(engine, { quietMs: 60_000, catchUpAfter, onGroup: (_p, group) => heard.push(group.changed) }),
  });
  onTestFinished(async () => {
    await switched.stop();
    engine.close();
  });
  await switched.start();
  return { root, engine, projectId, switched, heard };
}

describe("the recorder's flush", () => {
  it('writes what it heard for the project now and says since when the history holds the folder', async () => {
    const { root, engine, projectId, switched, heard } = await recording();
    const events = counter('watch.fileEvents');
    writeFileSync(join(root, 'a.txt'), 'two\n');
    // Heard (the group is open), not written: the quiet window has a minute to go.
    await until(() => counter('watch.fileEvents') > events);
    expect(engine.versions(projectId, 'a.txt')).toHaveLength(1);
    const asked = Date.now();
    const answer = await switched.flushFor(projectId);
    expect(answer).toEqual({ writtenThrough: expect.any(Number), watching: true });
    expect((answer as { writtenThrough: number }).writtenThrough).toBeGreaterThanOrEqual(asked);
    expect(engine.versions(projectId, 'a.txt')).toHaveLength(2);
    expect(heard).toEqual([['a.txt']]);
  });

  it('answers "not watching" for a project it does not record, and for every project while paused', async () => {
    const { projectId, switched } = await recording();
    expect(await switched.flushFor('0'.repeat(32))).toMatchObject({ watching: false });
    await switched.pause(null);
    expect(await switched.flushFor(projectId)).toEqual({ watching: false, reason: 'recording is paused' });
    await switched.resume();
    expect(await switched.flushFor(projectId)).toMatchObject({ watching: true });
  });
});
