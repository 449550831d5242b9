import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { DROP_AFTER_SCHEMA_12 } from '../db/olderSchema.js';
import type { VersionInfo } from '../../../shared/history.js';
import { findRenames } from '../../../electron/history/versions/findRenames.js';
import { cliJson } from '../../helpers/runCli.js';
import { git } from '../git/gitFixture.js';
import { notRacy, projectWithBaseline, readBack, repoWithBaseline, type Project } from './versionsHelpers.js';
import { until } from '../../helpers/until.js';

// A file moved (git mv, mv; same bytes or a small edit) is one history: the new path's versions
// go on with the old path's, the first at the new path marked with where it came from. Real
// files, real git, the real engine and CLI.

async function recorded(project: Project): Promise<void> {
  notRacy(project.store);
  await project.engine.rescan(project.projectId);
}

const text = (lines: number, edit = '') => Array.from({ length: lines }, (_, i) => `line ${i} of the parser`).join('\n') + edit;

describe('renames', () => {
  it('a plain mv continues the old path\'s versions, marked "Renamed from"', async () => {
    const project = await projectWithBaseline({ 'src/old.txt': 'one\n', 'other.txt': 'x\n' });
    const { root, engine, projectId } = project;
    writeFileSync(join(root, 'src/old.txt'), 'two\n');
    await recorded(project);
    mkdirSync(join(root, 'lib'));
    renameSync(join(root, 'src/old.txt'), join(root, 'lib/new.txt'));
    await recorded(project);

    const versions = engine.versions(projectId, 'lib/new.txt');
    expect(versions.map((v) => [v.path, v.hash === null ? null : 'contents', v.renamedFrom])).toEqual([
      ['src/old.txt', 'contents', null],
      ['src/old.txt', 'contents', null],
      ['lib/new.txt', 'contents', 'src/old.txt'],
    ]);
    // The older versions read and restore through the new path.
    expect(await readBack(engine, projectId, 'lib/new.txt', versions[0]!.versionId)).toBe('one\n');
    await engine.restoreFile(projectId, 'lib/new.txt', versions[0]!.versionId);
    expect(await readBack(engine, projectId, 'lib/new.txt')).toBe('one\n');
    // Pages go on across the rename, and a page asked from before it goes on along the old path.
    const page = engine.versions(projectId, 'lib/new.txt', { limit: 2 });
    expect(page.map((v) => v.path)).toEqual(['lib/new.txt', 'lib/new.txt']);
    const older = engine.versions(projectId, 'lib/new.txt', { limit: 2, before: page[0]!.versionId });
    expect(older.map((v) => v.path)).toEqual(['src/old.txt', 'src/old.txt']);
    expect(engine.versions(projectId, 'lib/new.txt', { limit: 5, before: older[1]!.versionId }).map((v) => v.path)).toEqual(['src/old.txt']);
    // The file's count numbers the continued list.
    expect((await engine.diskState(projectId, 'lib/new.txt')).versionCount).toBe(4);
  });

  it('a git mv with a small edit is a rename; a file half rewritten is not', async () => {
    const project = await repoWithBaseline({ 'a.py': text(20), 'b.py': text(20).replace(/parser/g, 'lexer') });
    const { root, engine, projectId } = project;
    git(root, 'mv', 'a.py', 'moved.py');
    writeFileSync(join(root, 'moved.py'), text(20, '\nplus one more line\n'));
    git(root, 'mv', 'b.py', 'rewritten.py');
    writeFileSync(join(root, 'rewritten.py'), text(20).replace(/line 1\d/g, 'changed'));
    await recorded(project);
    expect(engine.versions(projectId, 'moved.py').map((v) => v.path)).toEqual(['a.py', 'moved.py']);
    expect(engine.versions(projectId, 'moved.py').at(-1)!.renamedFrom).toBe('a.py');
    expect(engine.versions(projectId, 'rewritten.py').map((v) => v.renamedFrom)).toEqual([null]);
  });

  it('log FOLDER PATH --json gives renamedFrom on the version the rename brought', async () => {
    const project = await projectWithBaseline({ 'old.txt': 'same bytes\n' });
    const { root, engine } = project;
    renameSync(join(root, 'old.txt'), join(root, 'new.txt'));
    await recorded(project);
    engine.close();
    const log = await cliJson<VersionInfo[]>(['log', root, 'new.txt', '--json', '--data-dir', engine.dataDir]);
    expect(log.map((v) => [v.path, v.renamedFrom])).toEqual([
      ['old.txt', null],
      ['new.txt', 'old.txt'],
    ]);
  });

  it('live: a file moved while the watcher records is one history', async () => {
    const project = await projectWithBaseline({ 'notes/draft.md': 'a draft\n' });
    const { root, engine, projectId } = project;
    const changed: string[][] = [];
    await engine.watch(projectId, { quietMs: 300, maxGroupMs: 5000, onGroup: (g) => changed.push(g.changed) });
    renameSync(join(root, 'notes/draft.md'), join(root, 'notes/final.md'));
    await until(() => changed.some((paths) => paths.includes('notes/final.md')));
    await engine.unwatch(projectId);
    expect(engine.versions(projectId, 'notes/final.md').map((v) => [v.path, v.renamedFrom])).toEqual([
      ['notes/draft.md', null],
      ['notes/final.md', 'notes/draft.md'],
    ]);
  });

  it('a store from before renames (schema 12) is migrated and records them', async () => {
    const project = await projectWithBaseline({ 'old.txt': 'same bytes\n' });
    const { root, engine, projectId } = project;
    const file = historyDbPath(engine.store(projectId).storeDir);
    engine.close();
    const db = new Database(file);
    db.exec(DROP_AFTER_SCHEMA_12);
    db.pragma('user_version = 12');
    db.close();
    const again = new HistoryEngine(engine.dataDir);
    onTestFinished(() => again.close());
    const { projectId: id } = await again.open(root);
    renameSync(join(root, 'old.txt'), join(root, 'new.txt'));
    notRacy(again.store(id));
    await again.rescan(id);
    expect(again.versions(id, 'new.txt').map((v) => [v.path, v.renamedFrom])).toEqual([
      ['old.txt', null],
      ['new.txt', 'old.txt'],
    ]);
  });

  it("pairs by the same bytes first, then by git's similarity of at least 50%, each deleted file once", () => {
    const bytes = new Map([
      ['h1', Buffer.from(text(10))],
      ['h2', Buffer.from(text(10, '\nmore'))],
      ['h3', Buffer.from('nothing alike\n')],
    ]);
    const v = (path: string, hash: string) => ({ path, hash, mode: 0o644, size: bytes.get(hash)!.length, type: 'file' as const });
    const renames = findRenames(
      [v('copy1', 'h1'), v('copy2', 'h1'), v('edited', 'h2'), v('new', 'h3')],
      [{ ...v('orig', 'h1') }, { ...v('orig2', 'h2') }],
      (h) => [bytes.get(h)!],
    );
    expect(renames).toEqual([
      { path: 'copy1', fromPath: 'orig' },
      { path: 'edited', fromPath: 'orig2' },
    ]);
  });
});
