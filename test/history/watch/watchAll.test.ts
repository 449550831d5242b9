import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SnapshotInfo } from '../../../shared/history.js';
import { cliJson, finished, runCli, startCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { sha256 } from '../../helpers/writeTree.js';
import { until } from '../../helpers/until.js';
import { groupOf, project, running, started, stateOf, stop, watchAll } from '../../helpers/watchAllProcess.js';

// `hindsight watch --all` as a real child process over real folders: every known project caught up
// and watched, projects picked up, gone and back, groups written on SIGTERM, nothing lost to
// SIGKILL, a CLI restore taking its turn, and periodic rescans where the OS refuses a watch.

function hashes(root: string, path: string, data: string): Promise<string[]> {
  return cliJson<{ hash: string }[]>(['log', root, path, '--data-dir', data]).then((versions) => versions.map((v) => v.hash));
}

function snapshots(root: string, data: string): Promise<SnapshotInfo[]> {
  return cliJson<SnapshotInfo[]>(['log', root, '--data-dir', data]);
}

describe('hindsight watch --all', () => {
  it('records edits in every known project, one JSON line per group naming its project', async () => {
    const data = tempDir('hindsight-data-');
    const roots = [await project(data, { 'a.txt': 'a0' }), await project(data, { 'b.txt': 'b0' }), await project(data, { 'c.txt': 'c0' })];
    const watch = watchAll(data, ['--quiet-ms', '100']);
    expect(await watch.waitFor(started)).toEqual({ watching: true, projects: 3 });
    expect(
      watch.lines
        .filter((l) => l.state === 'recording')
        .map((l) => l.root)
        .sort(),
    ).toEqual([...roots].sort());
    const names = ['a.txt', 'b.txt', 'c.txt'];
    roots.forEach((root, i) => writeFileSync(join(root, names[i]!), `${names[i]} 1`));
    const groups = await Promise.all(roots.map((root, i) => watch.waitFor(groupOf(root, names[i]!))));
    const projects = await cliJson<{ projectId: string; root: string }[]>(['projects', '--data-dir', data]);
    for (const group of groups) {
      expect(group.projectId).toBe(projects.find((p) => p.root === group.root)!.projectId);
      // The group as `watch FOLDER` prints it, with its project and label (null: no catch-up).
      expect(Object.keys(group).sort()).toEqual(['changed', 'label', 'projectId', 'reconciled', 'root', 'snapshotId']);
    }
    expect((await stop(watch)).code).toBe(0);
    for (const [i, root] of roots.entries()) {
      expect(await hashes(root, names[i]!, data)).toEqual([sha256(`${names[i]![0]}0`), sha256(`${names[i]} 1`)]);
    }
  });

  it('says in words which project each group and state line is about', async () => {
    const data = tempDir('hindsight-data-');
    const root = await project(data, { 'a.txt': 'one' });
    const child = startCli(['watch', '--all', '--data-dir', data, '--quiet-ms', '100']);
    running.push(child);
    const done = finished(child);
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    await until(() => err.includes('Ctrl-C to stop'));
    expect(err).toContain('Watching 1 project and the list of known projects');
    writeFileSync(join(root, 'a.txt'), 'two');
    await until(() => out.includes(`${root}: Snapshot 2: 1 file changed`));
    child.kill('SIGINT');
    expect((await done).code).toBe(0);
    // Found by the watcher, or by the rescan the watch starts with when the edit came that early.
    expect(out).toMatch(new RegExp(`^Recording ${root}\n${root}: Snapshot 2: 1 file changed( \\(found by a rescan\\))?\n$`));
  });

  it('catches up a change made while nothing ran, titled with the span it covers; an unchanged project gets no snapshot', async () => {
    const data = tempDir('hindsight-data-');
    const root = await project(data, { 'a.txt': 'one' });
    const quiet = await project(data, { 'q.txt': 'q' });
    const first = watchAll(data, ['--quiet-ms', '100']);
    await first.waitFor(started);
    expect((await stop(first)).code).toBe(0);
    const stoppedAt = Date.now();
    writeFileSync(join(root, 'a.txt'), 'made while nothing ran');

    const second = watchAll(data, ['--quiet-ms', '100']);
    const caught = await second.waitFor(groupOf(root, 'a.txt'));
    await second.waitFor(started);
    // The catch-up is recorded before the recorder says it watches.
    expect(second.lines.indexOf(caught)).toBeLessThan(second.lines.findIndex(started));
    // A span within one minute says that minute once.
    const span = /^Changed while Hindsight was not running (?:from (\d{4}-\d\d-\d\d \d\d:\d\d) to|at) (\d{4}-\d\d-\d\d \d\d:\d\d)$/.exec(caught.label ?? '');
    expect(span, caught.label ?? 'no label').not.toBeNull();
    const from = span![1] ?? span![2]!;
    expect(from < span![2]! || (span![1] === undefined && from === span![2])).toBe(true);
    expect(from >= localMinute(stoppedAt - 60_000)).toBe(true);
    expect(await stop(second)).toMatchObject({ code: 0 });

    const log = await snapshots(root, data);
    expect(log.at(-1)).toMatchObject({ snapshotId: caught.snapshotId, label: caught.label, kind: 'change' });
    expect(await hashes(root, 'a.txt', data)).toEqual([sha256('one'), sha256('made while nothing ran')]);
    expect((await snapshots(quiet, data)).map((s) => s.kind)).toEqual(['baseline']);
    expect(second.lines.filter((l) => l.snapshotId !== undefined).map((l) => l.root)).toEqual([root]);
  });

  it('picks up a project opened by another process while it runs', async () => {
    const data = tempDir('hindsight-data-');
    await project(data, { 'a.txt': 'a' });
    const watch = watchAll(data, ['--quiet-ms', '100']);
    await watch.waitFor(started);
    const later = await project(data, { 'new.txt': 'first' });
    await watch.waitFor(stateOf(later, 'recording'));
    writeFileSync(join(later, 'new.txt'), 'second');
    await watch.waitFor(groupOf(later, 'new.txt'));
    expect((await stop(watch)).code).toBe(0);
    expect(await hashes(later, 'new.txt', data)).toEqual([sha256('first'), sha256('second')]);
  });

  it('reports a project whose folder goes away, and records it again when it is back', async () => {
    const data = tempDir('hindsight-data-');
    const root = await project(data, { 'a.txt': 'one' });
    const other = await project(data, { 'o.txt': 'o' });
    const watch = watchAll(data, ['--quiet-ms', '100']);
    await watch.waitFor(started);
    // Moved away whole (to the trash, an unmounted drive): the folder is not at its path.
    const away = `${root}.away`;
    renameSync(root, away);
    await watch.waitFor(stateOf(root, 'gone'));
    expect((await cliJson<{ root: string; lastSeen: string }[]>(['projects', '--data-dir', data])).find((p) => p.root === root)?.lastSeen).toBe('gone');
    writeFileSync(join(away, 'a.txt'), 'edited while away');
    renameSync(away, root);
    const back = await watch.waitFor(stateOf(root, 'back'));
    const caught = await watch.waitFor(groupOf(root, 'a.txt'));
    expect(watch.lines.indexOf(caught)).toBeLessThan(watch.lines.indexOf(back));
    const from = watch.lines.length;
    writeFileSync(join(root, 'a.txt'), 'edited after');
    await watch.waitFor(groupOf(root, 'a.txt'), from);
    expect((await stop(watch)).code).toBe(0);
    expect(watch.lines.filter((l) => l.root === other && l.state !== undefined).map((l) => l.state)).toEqual(['recording']);
    expect(await hashes(root, 'a.txt', data)).toEqual([sha256('one'), sha256('edited while away'), sha256('edited after')]);
  });

  it('stops recording a project removed from the list of known projects', async () => {
    const data = tempDir('hindsight-data-');
    const kept = await project(data, { 'k.txt': 'k0' });
    const removed = await project(data, { 'r.txt': 'r0' });
    const watch = watchAll(data, ['--quiet-ms', '100']);
    await watch.waitFor(started);
    // Removed as the viewer's "Remove from list" does: config.json saved without it.
    const path = join(data, 'config.json');
    const config = JSON.parse(readFileSync(path, 'utf8')) as { projects: { root: string }[] };
    config.projects = config.projects.filter((p) => p.root !== removed);
    writeFileSync(`${path}.new`, JSON.stringify(config));
    renameSync(`${path}.new`, path);
    await watch.waitFor(stateOf(removed, 'forgotten'));
    writeFileSync(join(removed, 'r.txt'), 'r1');
    writeFileSync(join(kept, 'k.txt'), 'k1');
    await watch.waitFor(groupOf(kept, 'k.txt'));
    expect((await stop(watch)).code).toBe(0);
    expect(watch.lines.some((l) => l.root === removed && l.snapshotId !== undefined)).toBe(false);
    expect(await hashes(removed, 'r.txt', data)).toEqual([sha256('r0')]);
    expect(await hashes(kept, 'k.txt', data)).toEqual([sha256('k0'), sha256('k1')]);
  });

  it('writes a change made 0.5 s before SIGTERM, within its quiet window', async () => {
    const data = tempDir('hindsight-data-');
    const root = await project(data, { 'a.txt': 'one' });
    const watch = watchAll(data, ['--quiet-ms', '5000']);
    await watch.waitFor(started);
    writeFileSync(join(root, 'a.txt'), 'just before');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const result = await stop(watch);
    expect([0, 143]).toContain(result.code);
    expect(watch.lines.some(groupOf(root, 'a.txt'))).toBe(true);
    expect(await hashes(root, 'a.txt', data)).toEqual([sha256('one'), sha256('just before')]);
  });

  it('loses nothing to SIGKILL in the middle of a group: the next start catches it up', async () => {
    const data = tempDir('hindsight-data-');
    const root = await project(data, { 'a.txt': 'one' });
    const killed = watchAll(data, ['--quiet-ms', '60000']);
    await killed.waitFor(started);
    writeFileSync(join(root, 'a.txt'), 'in the open group');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await stop(killed, 'SIGKILL')).signal).toBe('SIGKILL');
    expect(await hashes(root, 'a.txt', data)).toEqual([sha256('one')]);

    const next = watchAll(data, ['--quiet-ms', '100']);
    const caught = await next.waitFor(groupOf(root, 'a.txt'));
    expect(caught.label).toMatch(/^Changed while Hindsight was not running (from|at) /);
    expect((await stop(next)).code).toBe(0);
    expect(await hashes(root, 'a.txt', data)).toEqual([sha256('one'), sha256('in the open group')]);
  });

  it("starts the catch-up after SIGKILL at the last beat of the data folder's running mark, renewed while it ran", async () => {
    const data = tempDir('hindsight-data-');
    const root = await project(data, { 'a.txt': 'one' });
    const mark = join(data, 'recorder.running');
    const killed = watchAll(data, ['--quiet-ms', '100'], { HINDSIGHT_RUNNING_BEAT_MS: '200' });
    await killed.waitFor(started);
    // Renewed twice while it runs: its mtime is never more than a beat behind.
    let renewals = 0;
    for (let seen = statSync(mark).mtimeMs; renewals < 2; renewals++) {
      await until(() => statSync(mark).mtimeMs > seen);
      seen = statSync(mark).mtimeMs;
    }
    expect((await stop(killed, 'SIGKILL')).signal).toBe('SIGKILL');
    const lastBeat = statSync(mark).mtimeMs;
    writeFileSync(join(root, 'a.txt'), 'after the crash');

    const next = watchAll(data, ['--quiet-ms', '100']);
    const caught = await next.waitFor(groupOf(root, 'a.txt'));
    // A span within one minute is said once: "at" that minute.
    expect(caught.label).toMatch(new RegExp(`^Changed while Hindsight was not running (from ${localMinute(lastBeat)} to |at ${localMinute(lastBeat)}$)`));
    expect((await stop(next)).code).toBe(0);
    // A clean stop leaves no mark: each project's own says when it stopped.
    expect(existsSync(mark)).toBe(false);
  });

  it('lets a CLI open, prune and restore of a watched project write between its groups, and records no change for the restore', async () => {
    const data = tempDir('hindsight-data-');
    const root = await project(data, { 'a.txt': 'one', 'b.txt': 'b' });
    const watch = watchAll(data, ['--quiet-ms', '100']);
    await watch.waitFor(started);
    writeFileSync(join(root, 'a.txt'), 'two');
    await watch.waitFor(groupOf(root, 'a.txt'));
    // Every other writer takes its turn between the recorder's writes, none waits for its stop.
    for (const writer of [
      ['open', root],
      ['prune', root],
      ['restore', root, '--snapshot', '1'],
    ]) {
      const result = await runCli([...writer, '--data-dir', data]);
      expect([writer[0], result.code, result.stderr]).toEqual([writer[0], 0, expect.any(String)]);
    }
    const afterRestore = (await snapshots(root, data)).length;
    // A later edit's group closes after any group the restore's own writes opened.
    const from = watch.lines.length;
    writeFileSync(join(root, 'later.txt'), 'later');
    await watch.waitFor(groupOf(root, 'later.txt'), from);
    expect((await stop(watch)).code).toBe(0);
    const groups = watch.lines.slice(from).filter((l) => l.snapshotId !== undefined);
    expect(groups.map((g) => g.changed)).toEqual([['later.txt']]);
    expect((await snapshots(root, data)).length).toBe(afterRestore + 1);
    expect(await hashes(root, 'a.txt', data)).toEqual([sha256('one'), sha256('two'), sha256('one')]);
  });

  it('makes a CLI restore wait its turn, with a clear line, while it is writing a group', async () => {
    const data = tempDir('hindsight-data-');
    const root = await project(data, { 'a.txt': 'one' });
    const watch = watchAll(data, ['--quiet-ms', '100'], { HINDSIGHT_STOP_AT: 'record-commit' });
    await watch.waitFor(started);
    let watchErr = '';
    watch.child.stderr!.on('data', (chunk: Buffer) => (watchErr += chunk.toString()));
    writeFileSync(join(root, 'a.txt'), 'two');
    await until(() => watchErr.includes('stopped at record-commit'));
    // The recorder stopped inside its write, holding the writer lock.
    const restore = startCli(['restore', root, '--snapshot', '1', '--data-dir', data]);
    running.push(restore);
    const restored = finished(restore);
    let restoreErr = '';
    restore.stderr!.on('data', (chunk: Buffer) => (restoreErr += chunk.toString()));
    await until(() => restoreErr.includes(`waiting for process ${watch.child.pid}, which is writing this history`));
    watch.child.kill('SIGCONT');
    expect((await restored).code).toBe(0);
    await watch.waitFor(groupOf(root, 'a.txt'));
    expect((await stop(watch)).code).toBe(0);
    // The group written first, then the restore (which found nothing more to capture).
    expect(await hashes(root, 'a.txt', data)).toEqual([sha256('one'), sha256('two'), sha256('one')]);
  });

  it('rescans every fallbackRescanSeconds a project the OS refuses to watch (ENOSPC), and says so once with the fix', async () => {
    const data = tempDir('hindsight-data-');
    const root = await project(data, { 'a.txt': 'one' });
    expect((await runCli(['config', 'set', 'fallbackRescanSeconds', '0', '--data-dir', data])).code).toBe(1);
    expect((await runCli(['config', 'set', 'fallbackRescanSeconds', '1', '--data-dir', data])).code).toBe(0);
    const watch = watchAll(data, ['--quiet-ms', '100'], { HINDSIGHT_FAIL_AT: 'watch-setup:ENOSPC' });
    const refused = await watch.waitFor(stateOf(root, 'rescanning'));
    expect(refused.detail).toContain('rescanned every 1 s');
    expect(refused.detail).toContain('fs.inotify.max_user_watches');
    await watch.waitFor(started);
    writeFileSync(join(root, 'a.txt'), 'seen by a rescan');
    await watch.waitFor(groupOf(root, 'a.txt'));
    const from = watch.lines.length;
    writeFileSync(join(root, 'b.txt'), 'and the next one');
    await watch.waitFor(groupOf(root, 'b.txt'), from);
    expect((await stop(watch)).code).toBe(0);
    expect(watch.lines.filter((l) => l.state === 'rescanning')).toHaveLength(1);
    expect(await hashes(root, 'a.txt', data)).toEqual([sha256('one'), sha256('seen by a rescan')]);
  });
});

function localMinute(at: number): string {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}
