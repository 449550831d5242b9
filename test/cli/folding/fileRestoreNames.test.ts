import { expect, it, onTestFinished } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { failure } from '../../helpers/errorCode.js';
import { describeOnFoldFs } from '../../helpers/foldMount.js';
import { writeTree } from '../../helpers/writeTree.js';

// One file's restore where names fold: restoring `Readme.md` (as the viewer names a version of
// it) while the disk holds `README.md` would write over README.md. It is refused before anything
// is recorded or written, NAME_COLLISION naming the pair; the file under the other spelling is
// never touched.

describeOnFoldFs("one file's restore where names fold", (mount) => {
  it('refuses Readme.md over README.md, naming the pair, writing and recording nothing', async () => {
    const root = mkdtempSync(join(mount().dir, 'file-names-'));
    const engine = new HistoryEngine(mkdtempSync(join(mount().dir, 'data-')));
    onTestFinished(() => engine.close());
    writeTree(root, { 'Readme.md': 'first\n', 'docs/Guide.md': 'guide\n' });
    const { projectId } = await engine.open(root);
    const store = engine.store(projectId);
    const readme = store.index.versions.versionsOf('Readme.md')[0]!;
    const guide = store.index.versions.versionsOf('docs/Guide.md')[0]!;
    renameSync(join(root, 'Readme.md'), join(root, 'README.md'));
    writeFileSync(join(root, 'README.md'), 'second\n');
    renameSync(join(root, 'docs'), join(root, 'Docs'));
    await engine.rescan(projectId);
    const snapshots = store.index.snapshotReads.snapshots().length;

    const refused = await failure(engine.restoreFile(projectId, 'Readme.md', readme.versionId));
    expect(refused.code).toBe('NAME_COLLISION');
    expect(refused.message).toContain('README.md and Readme.md would be one file in');
    expect(refused.details).toMatchObject({ collisions: [['README.md', 'Readme.md']] });
    expect(readdirSync(root).sort()).toEqual(['Docs', 'README.md']);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('second\n');

    // A folder under another spelling is the same pair, named by the whole path.
    const inFolder = await failure(engine.restoreFile(projectId, 'docs/Guide.md', guide.versionId));
    expect(inFolder.code).toBe('NAME_COLLISION');
    expect(inFolder.details).toMatchObject({ collisions: [['Docs/Guide.md', 'docs/Guide.md']] });
    expect(store.index.snapshotReads.snapshots()).toHaveLength(snapshots);
  }, 120_000);
});
