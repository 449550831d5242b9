import { afterEach, describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { notRacy, projectWithBaseline } from '../versions/versionsHelpers.js';
import { AROUND, becomeShape, diskState, SHAPES, TYPE_CHANGES } from './typeChangeCases.js';
import { failure } from '../../helpers/errorCode.js';

// Issue 39 item 4: a snapshot restore across every change of type at one path (file <-> folder,
// file <-> link, link <-> folder, a file and a folder holding a folder), each way, with and without
// --delete-added. Where what stands now is in the way and added since, a restore without
// --delete-added is refused before anything is written, and its dry run refuses the same way;
// otherwise the dry run lists exactly the steps the restore takes, the folder ends exactly as the
// snapshot (types, modes, bytes, links), and the snapshot recorded equals the disk (a rescan after
// it finds nothing). A failure injected after every step is taken puts everything back.

afterEach(() => {
  delete process.env.HINDSIGHT_FAIL_AT;
});

async function caseProject(snapshot: keyof typeof SHAPES, now: keyof typeof SHAPES) {
  const project = await projectWithBaseline({ ...AROUND, ...SHAPES[snapshot] });
  const want = diskState(project.root);
  becomeShape(project.root, now);
  const before = diskState(project.root);
  return { ...project, want, before, baseline: project.store.index.snapshotReads.baselineId()! };
}

describe('a snapshot restore across a change of type', () => {
  for (const change of TYPE_CHANGES) {
    for (const deleteAdded of [false, true]) {
      const refused = change.needsDeleteAdded && !deleteAdded;
      it(`${change.name}${deleteAdded ? ' with --delete-added' : ''}: ${refused ? 'refused up front, nothing written' : 'the dry run is the run, and the folder ends as the snapshot'}`, async () => {
        const { engine, store, projectId, root, want, before, baseline } = await caseProject(change.snapshot, change.now);
        if (refused) {
          const dry = await failure(engine.previewRestore(projectId, baseline, { deleteAdded }));
          const run = await failure(engine.restoreSnapshot(projectId, baseline, { deleteAdded }));
          expect(dry.code).toBe('RESTORE_FAILED');
          expect(run.code).toBe('RESTORE_FAILED');
          expect(run.message).toBe(dry.message);
          expect(run.message).toMatch(/^Cannot restore node.* was added since the snapshot and is kept \(--delete-added deletes it/);
          expect(diskState(root)).toEqual(before);
          expect(store.index.snapshotReads.snapshots().map((s) => s.kind)).not.toContain('restore');
          return;
        }
        const preview = await engine.previewRestore(projectId, baseline, { deleteAdded });
        notRacy(store);
        const result = await engine.restoreSnapshot(projectId, baseline, { deleteAdded });
        expect(result.steps).toEqual(preview.steps);
        expect(result.steps.some((s) => s.path === 'node' && s.op === 'write') || change.snapshot === 'folder' || change.snapshot === 'nested').toBe(true);
        expect(diskState(root)).toEqual(want);
        // What the restore recorded is what the disk holds: the next rescan has nothing to record.
        notRacy(store);
        expect((await engine.rescan(projectId)).changed).toBe(0);
        expect(store.index.snapshotReads.snapshot(result.snapshotId!)!.kind).toBe('restore');
        expect(await engine.verify(projectId)).toMatchObject({ ok: true });
      });
    }
  }

  for (const change of TYPE_CHANGES.filter((c) => c.needsDeleteAdded)) {
    it(`${change.name}: a failure after every step is taken puts every path back and records nothing`, async () => {
      const { engine, store, projectId, root, before, baseline } = await caseProject(change.snapshot, change.now);
      process.env.HINDSIGHT_FAIL_AT = 'restore-commit:EIO';
      const error = await failure(engine.restoreSnapshot(projectId, baseline, { deleteAdded: true }));
      expect(error.message).toMatch(/^Could not restore the project: an input\/output error.*; nothing was restored and every change was put back\.$/);
      expect(error.details!.leftAlone).toEqual([]);
      expect(diskState(root)).toEqual(before);
      expect(store.index.snapshotReads.snapshots().map((s) => s.kind)).not.toContain('restore');
      delete process.env.HINDSIGHT_FAIL_AT;
      notRacy(store);
      expect((await engine.rescan(projectId)).changed).toBe(0);
    });
  }

  it('a file restore uses the same planner: a folder holding files where the version is a file is refused up front, nothing recorded or written', async () => {
    const { engine, store, projectId, root, before } = await caseProject('file', 'folder');
    const versionId = store.index.versions.versionsOf('node')[0]!.versionId;
    const snapshots = store.index.snapshotReads.snapshots().length;
    const error = await failure(engine.restoreFile(projectId, 'node', versionId));
    expect(error.code).toBe('RESTORE_FAILED');
    expect(error.message).toMatch(/^Cannot restore node: node\/a\.txt is (in its way|not in the history)/);
    expect(diskState(root)).toEqual(before);
    expect(store.index.snapshotReads.snapshots()).toHaveLength(snapshots);
  });

  it('a file restore into a folder that is a file now is refused up front; a link replaced by a file version is one rename', async () => {
    const nested = await caseProject('folder', 'file');
    const inside = nested.store.index.versions.versionsOf('node/a.txt')[0]!.versionId;
    expect((await failure(nested.engine.restoreFile(nested.projectId, 'node/a.txt', inside))).code).toBe('PATH_INVALID');
    expect(diskState(nested.root)).toEqual(nested.before);

    const { engine, store, projectId, root, want } = await caseProject('file', 'symlink');
    await engine.restoreFile(projectId, 'node', store.index.versions.versionsOf('node')[0]!.versionId);
    expect(diskState(root)).toEqual(want);
  });

  it('refuses to write over a file the history never recorded (ignored now), naming it, nothing written', async () => {
    const { engine, store, projectId, root } = await projectWithBaseline({ 'notes.txt': 'recorded\n' });
    const baseline = store.index.snapshotReads.baselineId()!;
    rmSync(join(root, 'notes.txt'));
    await engine.rescan(projectId);
    writeFileSync(join(root, 'notes.txt'), 'written while ignored\n');
    // The project's rescans leave it out from now on (the restore's capture too).
    await engine.rescan(projectId, { exclude: ['notes.txt'] });
    const before = diskState(root);
    const error = await failure(engine.restoreSnapshot(projectId, baseline));
    expect(error.message).toBe('Cannot restore notes.txt: notes.txt is not in the history (move it away first). Nothing was changed.');
    expect(diskState(root)).toEqual(before);
  });
});
