import { describe, expect, it, onTestFinished } from 'vitest';
import { mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { RecordAll, type RecordingReport } from '../../../electron/history/recorder/recordAll.js';
import { RUNNING_FILE } from '../../../electron/history/recorder/runningMark.js';
import { counter } from '../../../electron/history/trace.js';
import { RACY_WINDOW_MS } from '../../../electron/history/versions/rescan.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// The recorder of every project while nothing happens: it writes into no history, looks at
// nothing on a clock, and learns of config.json and of its folders from the OS's events.

describe('the recorder of every project, idle', () => {
  it('writes into no history.db and wakes only for its running mark and the periodic checks', async () => {
    const data = tempDir('hindsight-data-');
    const engine = new HistoryEngine(data);
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three']) {
      const root = tempDir();
      writeTree(root, { [`${name}.txt`]: name, 'sub/more.txt': `more ${name}` });
      const { projectId } = await engine.open(root);
      // Built now: the recorder's background work then finds nothing to do.
      await engine.buildSearchIndex(projectId);
      ids.push(projectId);
    }
    // Past the racy window of the files just written, a scan that hashes none of them: every later scan then finds nothing to write.
    const writtenAt = Date.now();
    await until(() => Date.now() > writtenAt + RACY_WINDOW_MS);
    for (const id of ids) await engine.rescan(id);
    const builds = counter('search.buildsWithNothingToDo');
    const kept = counter('rescan.keptUnchanged');
    const recorder = new RecordAll(engine, { quietMs: 50, beatMs: 250, reconcileEveryMs: 100, idleCollectMs: 50 });
    onTestFinished(async () => {
      await recorder.stop();
      engine.close();
    });
    await recorder.start();
    // Settled: each project's background build done, and its first periodic check.
    await until(() => counter('search.buildsWithNothingToDo') - builds >= 3 && counter('rescan.keptUnchanged') - kept >= 3);
    const files = historyFiles(data);
    const mark = statSync(join(data, RUNNING_FILE)).mtimeMs;
    const at = { ...counters() };

    // Longer than the 2 s the recorder once polled at, and with a periodic check in it for each project.
    await until(() => counter('recorder.beats') - at.beats >= 10 && counter('watch.periodicChecks') - at.checks >= 3);
    const now = counters();
    expect(now.looks - at.looks).toBe(0);
    expect(now.safetyLooks - at.safetyLooks).toBe(0);
    expect(now.wakeups - at.wakeups).toBe(now.beats - at.beats + (now.checks - at.checks) + (now.collections - at.collections));
    // The checks waited longer each time: 3 projects, their waits doubling from 100 ms, the last one past 1.5 s already.
    expect(now.checks - at.checks).toBeLessThanOrEqual(3 * 6);
    expect(historyFiles(data)).toEqual(files);
    expect(statSync(join(data, RUNNING_FILE)).mtimeMs).toBeGreaterThan(mark);
  }, 60_000);

  it('picks up a project added to config.json, and a folder gone and back, from events alone', async () => {
    const data = tempDir('hindsight-data-');
    const engine = new HistoryEngine(data);
    const home = tempDir();
    // One project right under a folder, one two levels down: its parent goes with it.
    const root = join(home, 'plain');
    const deep = join(home, 'outer', 'inner', 'deep');
    for (const folder of [root, deep]) {
      mkdirSync(folder, { recursive: true });
      writeTree(folder, { 'a.txt': folder });
      await engine.open(folder);
    }
    const reports: RecordingReport[] = [];
    const recorder = new RecordAll(engine, { quietMs: 50, lookMs: 3_600_000, onState: (r) => reports.push(r) });
    onTestFinished(async () => {
      await recorder.stop();
      engine.close();
    });
    await recorder.start();
    const safetyLooks = counter('recorder.safetyLooks');
    const states = (folder: string) => reports.filter((r) => r.root === folder).map((r) => r.state);

    // Opened by another process: config.json saved with one more project.
    const later = tempDir();
    writeTree(later, { 'l.txt': 'l' });
    const other = new HistoryEngine(data);
    await other.open(later);
    other.close();
    await until(() => states(later).includes('recording'));

    renameSync(root, `${root}.away`);
    await until(() => states(root).includes('gone'));
    renameSync(`${root}.away`, root);
    await until(() => states(root).includes('back'));

    // The parent of the folder moved away, then put back: heard from the nearest folder left.
    const inner = join(home, 'outer', 'inner');
    renameSync(inner, `${inner}.away`);
    await until(() => states(deep).includes('gone'));
    renameSync(`${inner}.away`, inner);
    await until(() => states(deep).includes('back'));

    expect(states(root)).toEqual(['recording', 'gone', 'back']);
    expect(states(deep)).toEqual(['recording', 'gone', 'back']);
    expect(counter('recorder.safetyLooks') - safetyLooks).toBe(0);
  }, 60_000);
});

function counters() {
  return {
    looks: counter('recorder.looks'),
    safetyLooks: counter('recorder.safetyLooks'),
    wakeups: counter('idle.wakeups'),
    beats: counter('recorder.beats'),
    checks: counter('watch.periodicChecks'),
    collections: counter('recorder.idleCollections'),
  };
}

/** Each project's history.db and its -wal as size and mtime: any write moves one of them. */
function historyFiles(data: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const id of readdirSync(join(data, 'projects'))) {
    for (const name of ['history.db', 'history.db-wal']) {
      const path = join(data, 'projects', id, name);
      const st = statSync(path, { throwIfNoEntry: false });
      files[`${id}/${name}`] = st === undefined ? 'none' : `${st.size} ${st.mtimeMs}`;
    }
  }
  return files;
}

/** Waits (without a time limit of its own: the test's timeout is the limit) until `ready` holds. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setTimeout(r, 20));
}
