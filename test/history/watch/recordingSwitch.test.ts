import { describe, expect, it, onTestFinished } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HindsightEvent } from '../../../shared/contract.js';
import type { RecordingStatus } from '../../../shared/recording.js';
import { createDispatcher } from '../../../electron/history/dispatcher/dispatcher.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { counter } from '../../../electron/history/trace.js';
import { RecordAll } from '../../../electron/history/recorder/recordAll.js';
import { RecordingSwitch } from '../../../electron/history/recorder/recordingSwitch.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { until } from '../../helpers/until.js';

// Pausing and resuming the recorder of every known project, as the tray asks it through the
// dispatcher: a pause writes what is open and stops recording, a change made meanwhile is caught
// up by the resume, a timed pause ends by itself, and each change of state is an event.

async function recorded() {
  const root = tempDir();
  writeTree(root, { 'a.txt': 'one\n' });
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  const { projectId } = await engine.open(root);
  const recording = new RecordingSwitch(engine, { makeRecorder: (catchUpAfter) => new RecordAll(engine, { quietMs: 50, catchUpAfter }) });
  const dispatcher = createDispatcher(engine, { watch: false, recording });
  const events: RecordingStatus[] = [];
  const snapshots: number[] = [];
  dispatcher.subscribe((event: HindsightEvent) => {
    if (event.event === 'recording') events.push(event.payload);
    if (event.event === 'snapshot') snapshots.push(event.payload.snapshot.snapshotId);
  });
  onTestFinished(async () => {
    await recording.stop();
    await dispatcher.close();
    engine.close();
  });
  const call = async <T>(name: string, args: object = {}) => {
    const answer = await dispatcher.handle({ kind: 'call', id: 1, call: name, args });
    if (!answer.result.ok) throw new Error(`${name}: ${answer.result.error.code} ${answer.result.error.message}`);
    return answer.result.value as T;
  };
  return { root, engine, projectId, recording, dispatcher, events, snapshots, call };
}

/** Resolves once `check` holds (the test's own timeout bounds the wait). */

describe('pausing and resuming the recorder', () => {
  it('stops recording on a pause, and the resume catches up what changed meanwhile', async () => {
    const { root, engine, projectId, recording, events, snapshots, call } = await recorded();
    expect(counter('watch.open')).toBe(0);
    expect(await recording.start()).toEqual({ recording: true, resumesAt: null, projects: 1 });
    expect(counter('watch.open')).toBe(1);
    expect(await call<RecordingStatus>('recordingStatus')).toEqual({ recording: true, resumesAt: null, projects: 1 });

    writeFileSync(join(root, 'a.txt'), 'two\n');
    await until(() => snapshots.length === 1);

    expect(await call<RecordingStatus>('pauseRecording', { forMs: null })).toEqual({ recording: false, resumesAt: null, projects: 0 });
    expect(events.at(-1)).toEqual({ recording: false, resumesAt: null, projects: 0 });
    expect(counter('watch.open')).toBe(0);
    writeFileSync(join(root, 'a.txt'), 'three, while paused\n');
    writeFileSync(join(root, 'b.txt'), 'new while paused\n');

    const resumed = await call<RecordingStatus>('resumeRecording');
    expect(resumed).toEqual({ recording: true, resumesAt: null, projects: 1 });
    expect(snapshots).toHaveLength(2);
    const caughtUp = engine
      .snapshotChanges(projectId, snapshots[1]!)
      .map((c) => c.path)
      .sort();
    expect(caughtUp).toEqual(['a.txt', 'b.txt']);
    expect(engine.store(projectId).index.snapshotReads.snapshot(snapshots[1]!)!.label).toMatch(/^Changed while recording was paused (from|at) /);
  });

  it('resumes by itself when a timed pause ends, and says until when meanwhile', async () => {
    const { events, call } = await recorded();
    await call('resumeRecording');
    const before = Date.now();
    const paused = await call<RecordingStatus>('pauseRecording', { forMs: 1000 });
    expect(paused.recording).toBe(false);
    expect(paused.resumesAt).toBeGreaterThanOrEqual(before + 1000);
    await until(() => events.at(-1)?.recording === true);
    expect(events.at(-1)).toEqual({ recording: true, resumesAt: null, projects: 1 });
  });

  it('refuses a pause shorter than a second, and answers NOT_RECORDING where no recorder runs', async () => {
    const { dispatcher } = await recorded();
    const short = await dispatcher.handle({ kind: 'call', id: 1, call: 'pauseRecording', args: { forMs: 10 } });
    expect(short.result).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    const none = createDispatcher(engine, { watch: false });
    onTestFinished(async () => {
      await none.close();
      engine.close();
    });
    const answer = await none.handle({ kind: 'call', id: 1, call: 'recordingStatus', args: {} });
    expect(answer.result).toMatchObject({ ok: false, error: { code: 'NOT_RECORDING' } });
  });
});
