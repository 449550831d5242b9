import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completionLine } from '../../renderer/format/copyCompletion.js';
import { gitTitle, renamedText } from '../../shared/versionWords.js';
import { git } from '../history/git/gitFixture.js';
import { notRacy, repoWithBaseline } from '../history/versions/versionsHelpers.js';

// What the version list says of versions the real engine recorded: git's operation as the
// timeline says it, and the mark of a rename.

describe("the version list in the user's words", () => {
  it('titles a version git wrote with the commit and branch, and marks the version a rename brought', async () => {
    const project = await repoWithBaseline({ 'a.txt': 'one\n' });
    const { root, engine, store, projectId } = project;
    git(root, 'checkout', '-qb', 'topic');
    writeFileSync(join(root, 'a.txt'), 'topic\n');
    git(root, 'commit', '-qam', 'Teach the router about blueprints');
    notRacy(store);
    await engine.rescan(projectId);
    git(root, 'checkout', '-q', 'main');
    notRacy(store);
    await engine.rescan(projectId);
    const newestFirst = engine.versions(projectId, 'a.txt').reverse();
    expect(gitTitle(newestFirst[0]!)).toBe(`Checked out \`${git(root, 'rev-parse', '--short=7', 'HEAD')}\` first, on main`);

    renameSync(join(root, 'a.txt'), join(root, 'b.txt'));
    notRacy(store);
    await engine.rescan(projectId);
    const renamed = engine.versions(projectId, 'b.txt').at(-1)!;
    expect(renamed.renamedFrom).toBe('a.txt');
    expect(renamedText(renamed.renamedFrom!)).toBe('Renamed from a.txt');
  });

  it('says how many paths ignore rules left out of a first copy', () => {
    expect(completionLine({ files: 3, bytes: 10, ms: 20, firstCopy: true, ignored: 2 })).toBe(
      '3 files in 0.02 s, 10 bytes; 2 paths left out by ignore rules (`hindsight ignored` lists them)',
    );
    expect(completionLine({ files: 3, bytes: 10, ms: 20, firstCopy: true, ignored: 0 })).toBe('3 files in 0.02 s, 10 bytes');
  });
});
