import { describe, expect, it, onTestFinished } from 'vitest';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { forgetProject } from '../../../electron/history/config/projectEdits.js';
import { RecordAll, type RecordedGroup, type RecordingReport } from '../../../electron/history/recorder/recordAll.js';
import { counter } from '../../../electron/history/trace.js';
import { cliJson } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { until } from '../../helpers/until.js';
import { sha256, writeTree } from '../../helpers/writeTree.js';
import { groupOf, project, started, stateOf, stop, watchAll, type Running } from '../../helpers/watchAllProcess.js';

// The recorder of every project (`watch --all`, the same recorder as `serve` and the app's history
// process) as a real child process, over a project whose folder is moved away and back again and
// again: quickly (the moves land while the recorder is still looking, catching up or stopping the
// watch of the last one) and slowly (each one heard before the next). The process lives through
// all of it, and the project is recorded again once its folder stays back. In process, each
// interleaving held open: the folder moved (or the project forgotten) while a catch-up is under
// way, which once left a project 'failed' and unrecorded for good; and a look that fails for one
// project, which must be said and must not stop the looks at the others.

function hashes(root: string, path: string, data: string): Promise<string[]> {
  return cliJson<{ hash: string }[]>(['log', root, path, '--data-dir', data]).then((versions) => versions.map((v) => v.hash));
}

/** An edit made now is recorded: the project is watched again. */
async function recordsAnEdit(watch: Running, root: string, content: string): Promise<void> {
  const from = watch.lines.length;
  writeFileSync(join(root, 'a.txt'), content);
  await watch.waitFor(groupOf(root, 'a.txt'), from);
}

/** A seeded sequence of small gaps (ms): the same interleavings on every run. */
function gaps(seed: number, n: number): number[] {
  const out: number[] = [];
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out.push(x % 4 === 0 ? 0 : x % 40);
  }
  return out;
}

const pause = (ms: number) => new Promise((resolve) => (ms === 0 ? setImmediate(resolve) : setTimeout(resolve, ms)));

describe('a recorded project whose folder moves away and back', () => {
  it('quickly, many times: the recorder lives on and records the project once the folder stays back', async () => {
    const data = tempDir('hindsight-data-');
    const root = await project(data, { 'a.txt': 'one' });
    const other = await project(data, { 'o.txt': 'o' });
    const watch = watchAll(data, ['--quiet-ms', '50']);
    await watch.waitFor(started);
    const away = `${root}.away`;
    for (const gap of gaps(45, 40)) {
      renameSync(root, away);
      await pause(gap);
      renameSync(away, root);
      await pause(gap);
    }
    await recordsAnEdit(watch, root, 'after the moves');
    await recordsAnEdit(watch, other, 'o after');
    expect(watch.child.exitCode).toBe(null);
    const result = await stop(watch);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect((await hashes(root, 'a.txt', data)).at(-1)).toBe(sha256('after the moves'));
  });

  it('slowly, each move heard: gone and back each time, with what changed while away caught up', async () => {
    const data = tempDir('hindsight-data-');
    const root = await project(data, { 'a.txt': 'one' });
    const watch = watchAll(data, ['--quiet-ms', '50']);
    await watch.waitFor(started);
    const away = `${root}.away`;
    for (let round = 1; round <= 3; round++) {
      const from = watch.lines.length;
      renameSync(root, away);
      await watch.waitFor(stateOf(root, 'gone'), from);
      writeFileSync(join(away, 'a.txt'), `away ${round}`);
      renameSync(away, root);
      await watch.waitFor(stateOf(root, 'back'), from);
      await watch.waitFor(groupOf(root, 'a.txt'), from);
    }
    await recordsAnEdit(watch, root, 'after the moves');
    const result = await stop(watch);
    expect([result.code, result.stderr]).toEqual([0, '']);
    const states = watch.lines.filter((l) => l.root === root && l.state !== undefined).map((l) => l.state);
    expect(states).toEqual(['recording', 'gone', 'back', 'gone', 'back', 'gone', 'back']);
    expect(await hashes(root, 'a.txt', data)).toEqual(['one', 'away 1', 'away 2', 'away 3', 'after the moves'].map(sha256));
  });
});

/** Holds each catch-up the recorder starts at its start, from `hold()` until `release()`. */
function catchUpGate(engine: HistoryEngine) {
  const catchUpAndWatch = engine.catchUpAndWatch.bind(engine);
  let gate: Promise<void> | undefined;
  let open = () => {};
  const gated = { held: 0 };
  engine.catchUpAndWatch = async (...args) => {
    if (gate) {
      gated.held++;
      await gate;
    }
    return catchUpAndWatch(...args);
  };
  return {
    gated,
    hold: () => void (gate = new Promise((resolve) => (open = resolve))),
    release: () => {
      gate = undefined;
      open();
    },
  };
}

/** An engine with one project in `<temp>/site` and a recorder of every project, stopped after the test. */
async function recorded() {
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  const root = join(tempDir(), 'site');
  writeTree(root, { 'a.txt': 'one' });
  const { projectId } = await engine.open(root);
  const catchUps = catchUpGate(engine);
  const reports: RecordingReport[] = [];
  const groups: RecordedGroup[] = [];
  const recorder = new RecordAll(engine, { quietMs: 50, lookMs: 3_600_000, onState: (r) => reports.push(r), onGroup: (_p, g) => groups.push(g) });
  onTestFinished(async () => {
    catchUps.release();
    await recorder.stop();
    engine.close();
  });
  return { engine, root, projectId, catchUps, recorder, groups, states: () => reports.map((r) => r.state) };
}

describe('a project that changes while the catch-up of its folder is under way', () => {
  it('moved away again: not a failed project, but gone, then recorded again once it is back', async () => {
    const { root, projectId, catchUps, recorder, groups, states } = await recorded();
    await recorder.start();
    const away = `${root}.away`;

    renameSync(root, away);
    await until(() => states().includes('gone'));
    catchUps.hold();
    renameSync(away, root);
    await until(() => catchUps.gated.held === 1);
    // Heard while the catch-up waits: the look finds the project starting and leaves it.
    const looks = counter('recorder.looks');
    renameSync(root, away);
    await until(() => counter('recorder.looks') > looks);
    catchUps.release();
    // The catch-up that found its folder gone ends, and a look after it finds the folder still away.
    await recorder.settled();
    await recorder.poll();
    expect(states()).toEqual(['recording', 'gone']);

    writeFileSync(join(away, 'a.txt'), 'while away');
    renameSync(away, root);
    await until(() => states().at(-1) === 'back');
    await until(() => groups.some((g) => g.changed.includes('a.txt')));
    expect(states()).toEqual(['recording', 'gone', 'back']);
    expect(recorder.watching()).toEqual([{ projectId, root }]);
  });

  it('moved away during the start: reported gone once the catch-up is done, then recorded when back', async () => {
    const { root, projectId, catchUps, recorder, states } = await recorded();
    catchUps.hold();
    const starting = recorder.start();
    await until(() => catchUps.gated.held === 1);
    const looks = counter('recorder.looks');
    renameSync(root, `${root}.away`);
    await until(() => counter('recorder.looks') > looks);
    catchUps.release();
    await starting;
    await until(() => states().includes('gone'));
    renameSync(`${root}.away`, root);
    await until(() => states().at(-1) === 'back');
    expect(states()).toEqual(['gone', 'back']);
    expect(recorder.watching()).toEqual([{ projectId, root }]);
  });

  it('forgotten meanwhile: looked at again once the catch-up is done, and no longer watched', async () => {
    const { engine, projectId, catchUps, recorder, states } = await recorded();
    catchUps.hold();
    const starting = recorder.start();
    await until(() => catchUps.gated.held === 1);
    const looks = counter('recorder.looks');
    await engine.config.editConfig(forgetProject(projectId));
    await until(() => counter('recorder.looks') > looks);
    catchUps.release();
    await starting;
    await until(() => states().includes('forgotten'));
    expect(states()).toEqual(['recording', 'forgotten']);
    expect(recorder.watching()).toEqual([]);
  });
});

describe('a recorder stopped', () => {
  it('while the sweep its report of a folder gone started is under way: the stop ends after the sweep', async () => {
    const { engine, root, recorder, states } = await recorded();
    await recorder.start();
    const events: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const sweepProjects = engine.sweepProjects.bind(engine);
    engine.sweepProjects = async (signal) => {
      events.push('sweep');
      await held;
      // Past the microtasks a stop with nothing to wait for takes to end.
      await new Promise((resolve) => setImmediate(resolve));
      await sweepProjects(signal);
      events.push('swept');
    };
    renameSync(root, `${root}.away`);
    await until(() => states().includes('gone') && events.includes('sweep'));
    const stopped = recorder.stop().then(() => events.push('stopped'));
    release();
    await stopped;
    expect(events).toEqual(['sweep', 'swept', 'stopped']);
  });
});

describe('a look that fails for one project', () => {
  it('says so with its name, goes on with the others, and records it again once its folder is back', async () => {
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    const [first, second] = [join(tempDir(), 'first'), join(tempDir(), 'second')];
    for (const root of [first, second]) {
      writeTree(root, { 'a.txt': root });
      await engine.open(root);
    }
    // The watch of the first one would not stop once: the look at its folder gone fails.
    const unwatch = engine.unwatch.bind(engine);
    let refuse = engine.locate(first);
    engine.unwatch = async (projectId) => {
      if (projectId === refuse) {
        refuse = '';
        await unwatch(projectId);
        throw new Error('the watch would not stop');
      }
      return unwatch(projectId);
    };
    const reports: RecordingReport[] = [];
    const recorder = new RecordAll(engine, { quietMs: 50, lookMs: 3_600_000, onState: (r) => reports.push(r) });
    onTestFinished(async () => {
      await recorder.stop();
      engine.close();
    });
    await recorder.start();
    const states = (root: string) => reports.filter((r) => r.root === root).map((r) => r.state);

    renameSync(first, `${first}.away`);
    renameSync(second, `${second}.away`);
    await until(() => states(first).includes('gone') && states(second).includes('gone'));
    expect(reports.find((r) => r.state === 'failed')).toMatchObject({ root: first, detail: 'the watch would not stop' });
    renameSync(`${first}.away`, first);
    renameSync(`${second}.away`, second);
    await until(() => states(first).at(-1) === 'back' && states(second).at(-1) === 'back');
    expect(states(first)).toEqual(['recording', 'failed', 'gone', 'back']);
    expect(states(second)).toEqual(['recording', 'gone', 'back']);
  });

  it('forgotten, when its history would not close: said with its name, and the project forgotten after it is still looked at', async () => {
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    const [first, second] = [join(tempDir(), 'first'), join(tempDir(), 'second')];
    for (const root of [first, second]) {
      writeTree(root, { 'a.txt': root });
      await engine.open(root);
    }
    const [firstId, secondId] = [engine.locate(first), engine.locate(second)];
    const closeProject = engine.closeProject.bind(engine);
    engine.closeProject = async (projectId) => {
      await closeProject(projectId);
      if (projectId === firstId) throw new Error('the history would not close');
    };
    const reports: RecordingReport[] = [];
    const recorder = new RecordAll(engine, { quietMs: 50, lookMs: 3_600_000, onState: (r) => reports.push(r) });
    onTestFinished(async () => {
      await recorder.stop();
      engine.close();
    });
    await recorder.start();
    await engine.config.editConfig(forgetProject(firstId));
    await engine.config.editConfig(forgetProject(secondId));
    await until(() => reports.length === 4);
    expect(reports.slice(2).map((r) => [r.root, r.state, r.detail])).toEqual([
      [first, 'failed', 'the history would not close'],
      [second, 'forgotten', null],
    ]);
    expect(recorder.watching()).toEqual([]);
  });
});
