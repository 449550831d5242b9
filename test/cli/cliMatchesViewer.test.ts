import { describe, expect, it, onTestFinished } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallName, ProjectSummary, RequestOf, ResponseOf } from '../../shared/contract.js';
import { createDispatcher } from '../../electron/history/dispatcher/dispatcher.js';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import { makeRepo } from '../history/git/gitFixture.js';
import { cliJson } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';

// The CLI's --json and the viewer's answer, side by side, for every command that has both: the
// same question gets the same shape, and the same values wherever the moment does not differ (a
// time, an id the other side has not written yet). The CLI runs as a real process; the viewer's
// side is the real dispatcher on another engine over the same data folder.

/** Every key of a value, all the way down (an array by its first element). */
function keysOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [keysOf(value[0])];
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, keysOf((value as Record<string, unknown>)[k])]),
    );
  }
  return typeof value;
}

/** The same keys; a null on one side may be a number or string on the other only where expected. */
function expectSameShape(cli: unknown, viewer: unknown, what: string): void {
  const strip = (shape: unknown): unknown =>
    shape && typeof shape === 'object' && !Array.isArray(shape)
      ? Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, typeof v === 'string' ? 'value' : strip(v)]))
      : Array.isArray(shape)
        ? shape.map(strip)
        : shape;
  expect(strip(keysOf(cli)), what).toEqual(strip(keysOf(viewer)));
}

describe('the CLI prints what the viewer receives', () => {
  it('for open, files, log, versions, deleted, search, restore, checkpoint, verify, pin, prune, git-versions, projects and config', async () => {
    const root = makeRepo({ 'a.txt': 'one\n', 'b.txt': 'bee\n', 'dir/c.txt': 'sea\n' });
    const dataDir = tempDir('hindsight-data-');
    const cli = <T>(...args: string[]) => cliJson<T>([...args, '--data-dir', dataDir]);
    const engine = new HistoryEngine(dataDir);
    const dispatcher = createDispatcher(engine, { watch: false });
    onTestFinished(async () => {
      await dispatcher.close();
      engine.close();
    });
    let id = 0;
    const viewer = async <N extends CallName>(call: N, args: RequestOf<N>): Promise<ResponseOf<N>> => {
      const answer = await dispatcher.handle({ kind: 'call', id: ++id, call, args });
      if (!answer.result.ok) throw new Error(`${call}: ${JSON.stringify(answer.result.error)}`);
      return answer.result.value as ResponseOf<N>;
    };
    const moment = { ms: 0 };

    // open ↔ openProject (the second open of each side is a rescan; only its duration differs)
    const firstOpen = await cli<ResponseOf<'openProject'>>('open', root);
    expect(firstOpen.firstCopy).toBe(true);
    const opened = await viewer('openProject', { path: root });
    const reopened = await cli<ResponseOf<'openProject'>>('open', root);
    expectSameShape(reopened, opened, 'open');
    const { projectId } = opened;
    const sameMoment = (p: ProjectSummary) => ({ ...p, lastOpenedAt: 0 });
    expect({ ...reopened, ...moment, project: sameMoment(reopened.project) }).toEqual({ ...opened, ...moment, project: sameMoment(opened.project) });

    expect(await cli('files', root)).toEqual(await viewer('fileTree', { projectId }));
    expect(await cli('files', root, '--at', '1')).toEqual(await viewer('fileTree', { projectId, snapshotId: 1 }));

    writeFileSync(join(root, 'a.txt'), 'two\n');
    rmSync(join(root, 'b.txt'));
    writeFileSync(join(root, 'dir/new.txt'), 'new\n');

    // checkpoint ↔ createCheckpoint: the CLI's snapshot is the one the viewer lists
    const checkpoint = await cli<ResponseOf<'createCheckpoint'>>('checkpoint', root, 'from the CLI');
    const viewerCheckpoint = await viewer('createCheckpoint', { projectId, label: 'from the viewer' });
    expectSameShape(checkpoint, viewerCheckpoint, 'checkpoint');
    const log = await viewer('log', { projectId });
    expect(log).toContainEqual(checkpoint);
    expect(await cli('log', root)).toEqual(log);
    expect(await cli('log', root, 'a.txt')).toEqual(await viewer('versions', { projectId, path: 'a.txt' }));
    expect(await cli('deleted', root)).toEqual(await viewer('deletedFiles', { projectId }));
    expect(await cli('search', root, 'one')).toEqual(await viewer('search', { projectId, query: 'one' }));
    expect(await cli('search', root, 'e', '--path', 'dir/*', '--regex', '--case')).toEqual(
      await viewer('search', { projectId, query: 'e', path: 'dir/*', regex: true, caseSensitive: true }),
    );

    // restore --dry-run ↔ previewRestore, whole project and one folder
    expect(await cli('restore', root, '--snapshot', '1', '--dry-run')).toEqual(await viewer('previewRestore', { projectId, snapshotId: 1 }));
    expect(await cli('restore', root, '--snapshot', '1', '--path', 'dir', '--delete-added', '--dry-run')).toEqual(
      await viewer('previewRestore', { projectId, snapshotId: 1, pathPrefix: 'dir', deleteAdded: true }),
    );

    expect(await cli('git-versions', root, 'a.txt')).toEqual(await viewer('gitVersions', { projectId, path: 'a.txt' }));
    expect(await cli('verify', root)).toEqual(await viewer('verify', { projectId }));
    // pin ↔ setPin, prune --dry-run ↔ prune (only its duration differs)
    expect(await cli('pin', root, '--snapshot', '1')).toEqual(await viewer('setPin', { projectId, snapshotId: 1, pinned: true }));
    expect(await cli('unpin', root, '--snapshot', '1')).toEqual(await viewer('pins', { projectId }));
    const pruneCli = await cli<ResponseOf<'prune'>>('prune', root, '--dry-run');
    expect({ ...pruneCli, ms: 0 }).toEqual({ ...(await viewer('prune', { projectId, dryRun: true })), ms: 0 });
    expect(await cli('config', 'get')).toEqual((await viewer('getConfig', {})).settings);
    // The CLI's process never opened the project: only `open` and the time differ.
    const projects = await cli<ProjectSummary[]>('projects', '--check');
    const listed = await viewer('listProjects', {});
    expect(projects.map((p) => ({ ...sameMoment(p), open: true }))).toEqual(listed.map(sameMoment));

    // restore PATH --version ↔ restoreFile; restore --snapshot ↔ restoreSnapshot
    const [baselineA] = await viewer('versions', { projectId, path: 'a.txt' });
    const restoredFile = await cli<ResponseOf<'restoreFile'>>('restore', root, 'a.txt', '--version', String(baselineA!.versionId));
    writeFileSync(join(root, 'a.txt'), 'three\n');
    const viewerRestoredFile = await viewer('restoreFile', { projectId, path: 'a.txt', versionId: baselineA!.versionId });
    expectSameShape(restoredFile, viewerRestoredFile, 'restore a file');
    expect(restoredFile).toMatchObject({ path: 'a.txt', versionId: baselineA!.versionId });

    // restore PATH --version HEAD ↔ restoreFromGit
    writeFileSync(join(root, 'a.txt'), 'four\n');
    const fromGit = await cli<ResponseOf<'restoreFromGit'>>('restore', root, 'a.txt', '--version', 'HEAD');
    writeFileSync(join(root, 'a.txt'), 'five\n');
    const viewerFromGit = await viewer('restoreFromGit', { projectId, path: 'a.txt', source: 'HEAD' });
    expectSameShape(fromGit, viewerFromGit, 'restore from git');
    expect(fromGit).toMatchObject({ path: 'a.txt', fromGit: 'HEAD' });

    writeFileSync(join(root, 'dir/c.txt'), 'changed\n');
    const restoredSnapshot = await cli<ResponseOf<'restoreSnapshot'>>('restore', root, '--snapshot', '1', '--path', 'dir');
    writeFileSync(join(root, 'dir/c.txt'), 'changed again\n');
    const viewerRestoredSnapshot = await viewer('restoreSnapshot', { projectId, snapshotId: 1, pathPrefix: 'dir' });
    expectSameShape(restoredSnapshot, viewerRestoredSnapshot, 'restore a snapshot');
    const kinds = new Map((await viewer('log', { projectId })).map((s) => [s.snapshotId, s.kind]));
    for (const result of [restoredFile, viewerRestoredFile, fromGit, viewerFromGit, restoredSnapshot, viewerRestoredSnapshot]) {
      expect(kinds.get(result.snapshotId!)).toBe('restore');
    }
  });
});
