import { describe, expect, it, onTestFinished } from 'vitest';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { counter } from '../../../electron/history/trace.js';
import { RecordAll } from '../../../electron/history/recorder/recordAll.js';
import { writePause } from '../../../electron/history/recorder/pauseMark.js';
import { RecordingSwitch } from '../../../electron/history/recorder/recordingSwitch.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// The user's pause outlives the process that took it: a recorder started afterwards for the same
// data folder (the app again, `serve`, the serve `hindsight view` starts) stays paused, watching
// nothing, until resumed; a timed pause that has ended is not kept. Watches counted, not timed.

async function engineWithProject(): Promise<HistoryEngine> {
  const root = tempDir();
  writeTree(root, { 'a.txt': 'one\n' });
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  await engine.open(root);
  onTestFinished(() => engine.close());
  return engine;
}

function recorder(engine: HistoryEngine): RecordingSwitch {
  const recording = new RecordingSwitch(engine, {
    pauseMark: engine.dataDir,
    makeRecorder: (catchUpAfter) => new RecordAll(engine, { quietMs: 50, catchUpAfter }),
  });
  onTestFinished(() => recording.stop());
  return recording;
}

describe('a pause kept for the data folder', () => {
  it('keeps the next recorder paused until resumed there', async () => {
    const engine = await engineWithProject();
    const first = recorder(engine);
    expect((await first.start()).recording).toBe(true);
    expect(counter('watch.open')).toBe(1);
    await first.pause(null);
    await first.stop();
    const mark = join(engine.dataDir, 'recording-paused.json');
    expect(statSync(mark).mode & 0o777).toBe(0o600);

    const second = recorder(engine);
    expect(await second.start()).toEqual({ recording: false, resumesAt: null, projects: 0 });
    expect(counter('watch.open')).toBe(0);
    expect((await second.resume()).recording).toBe(true);
    expect(counter('watch.open')).toBe(1);
    expect(existsSync(mark)).toBe(false);
    await second.stop();

    const third = recorder(engine);
    expect((await third.start()).recording).toBe(true);
  });

  it('keeps a timed pause until its end, and not after', async () => {
    const engine = await engineWithProject();
    const first = recorder(engine);
    await first.start();
    const paused = await first.pause(60 * 60_000);
    await first.stop();
    const second = recorder(engine);
    expect(await second.start()).toEqual({ recording: false, resumesAt: paused.resumesAt, projects: 0 });
    await second.stop();

    // A timed pause whose end has passed while nothing ran.
    writePause(engine.dataDir, Date.now() - 1000);
    const third = recorder(engine);
    expect((await third.start()).recording).toBe(true);
  });
});
