import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { failure } from '../../helpers/errorCode.js';
import { writeTree } from '../../helpers/writeTree.js';
import { notRacy, projectWithBaseline } from '../versions/versionsHelpers.js';
import { diskState } from './typeChangeCases.js';

// Folders that a restore's deletions leave empty (files added since the snapshot, deleted with
// --delete-added) go as steps of the plan, each with the mode it had: the dry run lists them, and
// a restore that fails after taking them makes them again with exactly that mode, not the umask's.

afterEach(() => {
  delete process.env.HINDSIGHT_FAIL_AT;
});

async function projectWithAddedFolders() {
  const project = await projectWithBaseline({ 'keep.txt': 'kept\n' });
  writeTree(project.root, { 'added/deep/x.txt': 'x\n', 'added/y.txt': 'y\n' });
  // Modes no umask gives: a rollback that made them anew would show it.
  chmodSync(join(project.root, 'added/deep'), 0o700);
  chmodSync(join(project.root, 'added'), 0o750);
  notRacy(project.store);
  await project.engine.rescan(project.projectId);
  return { ...project, baseline: project.store.index.snapshotReads.baselineId()!, before: diskState(project.root) };
}

describe('folders emptied by a restore', () => {
  it('are steps of the plan, deepest first, and the run takes exactly them', async () => {
    const { engine, projectId, root, baseline } = await projectWithAddedFolders();
    const preview = await engine.previewRestore(projectId, baseline, { deleteAdded: true });
    expect(preview.steps.filter((s) => s.op === 'removeFolder')).toEqual([
      { op: 'removeFolder', path: 'added/deep' },
      { op: 'removeFolder', path: 'added' },
    ]);
    const result = await engine.restoreSnapshot(projectId, baseline, { deleteAdded: true });
    expect(result.steps).toEqual(preview.steps);
    expect(existsSync(join(root, 'added'))).toBe(false);
  });

  it('come back with their own modes when the restore fails after removing them', async () => {
    const { engine, store, projectId, root, baseline, before } = await projectWithAddedFolders();
    expect(before['added']).toMatchObject({ type: 'folder', mode: 0o750 });
    process.env.HINDSIGHT_FAIL_AT = 'restore-commit:EIO';
    const error = await failure(engine.restoreSnapshot(projectId, baseline, { deleteAdded: true }));
    expect(error.details!.leftAlone).toEqual([]);
    expect(error.details!.putBack).toEqual(expect.arrayContaining(['added', 'added/deep', 'added/y.txt', 'added/deep/x.txt']));
    expect(diskState(root)).toEqual(before);
    expect(store.index.snapshotReads.snapshots().map((s) => s.kind)).not.toContain('restore');
  });
});
