import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catchUpTitle, lastSeenAt } from '../../../electron/history/recorder/catchUp.js';
import { sha256 } from '../../helpers/writeTree.js';
import { git, makeRepo, write } from '../git/gitFixture.js';
import { openWithBaseline, type Project } from '../versions/versionsHelpers.js';
import { until } from '../../helpers/until.js';

// Files git tracks are recorded live whatever .gitignore says: when git writes its index, the
// watcher asks for the tracked set again, so a file added with `git add -f` (an ignored name, or
// inside an ignored folder) is recorded within the quiet window with its first content, and its
// later edits are heard. Nothing of it waits for the next start's catch-up. Real git, the real
// engine and its live watcher.

async function watched(project: Project): Promise<void> {
  let groups = 0;
  await project.engine.watch(project.projectId, { quietMs: 300, maxGroupMs: 10_000, onGroup: () => groups++ });
  await until(() => groups > 0); // the rescan a watch starts with
}

function hashes(project: Project, path: string): (string | null)[] {
  return project.store.index.versions.versionsOf(path).map((v) => v.hash);
}

describe('files git tracks, recorded live', () => {
  it('a file added with git add -f is recorded with its first content and its edits, never as changed while Hindsight was not running', async () => {
    const project = await openWithBaseline(makeRepo({ '.gitignore': '*.log\nbuild/\n', 'a.txt': 'a\n' }));
    const { root, engine, projectId } = project;
    await watched(project);
    write(root, 'debug.log', 'first content\n');
    write(root, 'build/out/report.txt', 'built once\n');
    git(root, 'add', '-f', 'debug.log', 'build/out/report.txt');
    await until(() => hashes(project, 'debug.log').length > 0 && hashes(project, 'build/out/report.txt').length > 0);
    expect(hashes(project, 'debug.log')).toEqual([sha256('first content\n')]);
    expect(hashes(project, 'build/out/report.txt')).toEqual([sha256('built once\n')]);

    // Its folder is watched from now on: an edit inside the ignored folder is heard too.
    writeFileSync(join(root, 'debug.log'), 'second content\n');
    writeFileSync(join(root, 'build/out/report.txt'), 'built twice\n');
    await until(() => hashes(project, 'debug.log').length > 1 && hashes(project, 'build/out/report.txt').length > 1);
    await engine.unwatch(projectId);
    expect(hashes(project, 'debug.log')).toEqual([sha256('first content\n'), sha256('second content\n')]);
    expect(hashes(project, 'build/out/report.txt')).toEqual([sha256('built once\n'), sha256('built twice\n')]);

    // The next start's catch-up finds nothing left to record.
    const store = engine.store(projectId);
    const caught = await engine.rescan(projectId, { label: catchUpTitle(lastSeenAt(store), Date.now()) });
    expect(caught.snapshotId).toBeNull();
    for (const snapshot of engine.log(projectId)) expect(snapshot.label ?? '').not.toMatch(/not running/);
  });
});
