import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ProjectStore } from '../../../electron/history/project/projectStore.js';
import { blobPath } from '../../../electron/history/store/storeLayout.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import type { Progress } from '../../../shared/progress.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { readTree } from '../../helpers/writeTree.js';
import { notRacy } from '../versions/versionsHelpers.js';
import { asFormat1, folderModes, historyWithChanges, otherEngine } from './bundleHelpers.js';
import { failure } from '../../helpers/errorCode.js';

// Export on one data folder, import on another: every snapshot restores byte-exact with file and
// folder modes and links; an incremental bundle continues it; importing twice changes nothing.

/** Every snapshot of two histories written out and compared: bytes, modes, links, folder modes. */
async function expectSameSnapshots(a: HistoryEngine, aId: string, b: HistoryEngine, bId: string): Promise<void> {
  const out = tempDir();
  for (const snapshot of a.log(aId)) {
    const left = join(out, `a-${snapshot.snapshotId}`);
    const right = join(out, `b-${snapshot.snapshotId}`);
    await a.materializeSnapshot(aId, snapshot.snapshotId, left);
    await b.materializeSnapshot(bId, snapshot.snapshotId, right);
    expect(readTree(right)).toEqual(readTree(left));
    expect(folderModes(right)).toEqual(folderModes(left));
  }
}

const OWN = '0a0a0a0a-0000-4000-8000-00000000000a';
const OTHER = '0b0b0b0b-0000-4000-8000-00000000000b';

/** Another machine's two snapshots, written the way a pull writes them, its line forked from `fork`. */
function pullFromOther(store: ProjectStore, fork: number): void {
  const file = (path: string, text: string) => {
    const hash = createHash('sha256').update(text).digest('hex');
    mkdirSync(dirname(blobPath(store.blobs.dir, hash)), { recursive: true });
    writeFileSync(blobPath(store.blobs.dir, hash), text, { mode: 0o600 });
    return { path, hash, mode: 0o644, size: Buffer.byteLength(text), type: 'file' as const, target: null };
  };
  const snapshots = [
    { origin: 7, versions: [file('src/a.txt', 'alpha on the other machine\n'), file('other.txt', 'only there\n')] },
    { origin: 9, versions: [{ path: 'same-1.txt', hash: null, mode: 0o644, size: 0, type: null, target: null }] },
  ];
  store.index.importForeign(
    snapshots.map((s) => ({
      snapshot: { kind: 'change', at: Date.now(), label: null, machine: OTHER, machineSnapshot: s.origin },
      versions: s.versions,
      blobs: s.versions.filter((v) => v.hash !== null).map((v) => ({ hash: v.hash!, size: v.size })),
    })),
    () => store.index.remotes.setLineFork(OTHER, { machine: OWN, origin: fork }, OWN),
  );
}

describe('export and import', () => {
  it('carries the whole history to another data folder and another path, every snapshot exact', async () => {
    const { engine, projectId, store } = await historyWithChanges();
    const bundle = join(tempDir(), 'history.hsb');
    const exported = await engine.exportHistory(projectId, { file: bundle });
    expect(exported).toMatchObject({ projectId, to: bundle, since: null, first: 1, last: 4, snapshots: 4, requires: 0 });
    // Each blob once: the two files with the same bytes share one.
    expect(exported.blobs).toBe(store.index.blobRecords.blobTotals().blobs);
    expect(readFileSync(bundle).subarray(0, 19).toString()).toBe('hindsight-bundle 4\n');

    const other = otherEngine();
    const moved = tempDir();
    const progress: Progress[] = [];
    other.events.on((e) => e.event === 'progress' && progress.push(e.payload));
    const imported = await other.importHistory({ file: bundle }, { as: moved });
    expect(imported).toMatchObject({
      root: moved,
      historyId: projectId,
      snapshots: 4,
      added: 4,
      blobsPresent: 0,
      blobsWritten: exported.blobs,
      bytes: exported.bytes,
    });
    expect(progress.filter((p) => p.operation === 'import').at(-1)).toMatchObject({ phase: 'done', bytesDone: exported.bytes, etaMs: 0 });
    expect(other.log(imported.projectId)).toEqual(engine.log(projectId));
    await expect(other.listProjects()).resolves.toEqual([expect.objectContaining({ projectId: imported.projectId, root: moved })]);
    await expectSameSnapshots(engine, projectId, other, imported.projectId);
    expect(readdirSync(moved)).toEqual([]); // the folder's files are not touched

    // The same bundle again changes nothing: no snapshot added, no blob written.
    const again = await other.importHistory({ file: bundle }, { as: moved });
    expect(again).toMatchObject({ added: 0, blobsWritten: 0, blobsPresent: exported.blobs });
    expect(other.log(imported.projectId)).toEqual(engine.log(projectId));
  });

  it('carries the pins as they are, and a bundle of format 1 pins the checkpoints a person made', async () => {
    const { engine, projectId } = await historyWithChanges();
    const checkpoint = engine.log(projectId).find((s) => s.kind === 'checkpoint')!.snapshotId;
    const edited = engine.versions(projectId, 'new/inner/n.txt')[0]!.versionId;
    engine.setPin(projectId, { snapshotId: 2 }, true);
    engine.setPin(projectId, { versionId: edited }, true);
    engine.setPin(projectId, { snapshotId: checkpoint }, false);
    const pins = engine.pins(projectId);
    expect(pins).toEqual({ snapshots: [2], versions: [edited] });
    const bundle = join(tempDir(), 'history.hsb');
    await engine.exportHistory(projectId, { file: bundle });

    const other = otherEngine();
    const imported = await other.importHistory({ file: bundle }, { as: tempDir() });
    expect(other.pins(imported.projectId)).toEqual(pins);
    // A pin changed here survives the same bundle imported again: its snapshots are already here.
    other.setPin(imported.projectId, { snapshotId: 2 }, false);
    await other.importHistory({ file: bundle }, { as: other.store(imported.projectId).root });
    expect(other.pins(imported.projectId)).toEqual({ snapshots: [], versions: [edited] });

    const old = join(tempDir(), 'format-1.hsb');
    writeFileSync(old, asFormat1(readFileSync(bundle)));
    const third = otherEngine();
    const fromOld = await third.importHistory({ file: old }, { as: tempDir() });
    expect(fromOld.added).toBe(4);
    expect(third.pins(fromOld.projectId)).toEqual({ snapshots: [checkpoint], versions: [] });
    await expectSameSnapshots(engine, projectId, third, fromOld.projectId);
  });

  it("carries where each snapshot came from and other machines' lines, so the folder's state is the same", async () => {
    const { engine, projectId, store } = await historyWithChanges();
    const first = engine.versions(projectId, 'src/a.txt').at(-1)!.versionId;
    await engine.restoreFile(projectId, 'src/a.txt', first);
    pullFromOther(store, store.index.snapshotReads.baselineId()!);
    const restored = engine.versions(projectId, 'src/a.txt').find((v) => v.origin.kind === 'restore')!;
    expect(restored.origin.fromVersionId).toBe(first);

    const bundle = join(tempDir(), 'history.hsb');
    await engine.exportHistory(projectId, { file: bundle });
    const other = otherEngine();
    const imported = await other.importHistory({ file: bundle }, { as: tempDir() });
    const to = imported.projectId;
    // Origins (the restore and the version it came from), machines, and each line's state.
    expect(other.log(to)).toEqual(engine.log(projectId));
    expect(other.log(to).filter((s) => s.machine?.id === OTHER)).toHaveLength(2);
    for (const path of ['src/a.txt', 'other.txt', 'same-1.txt']) expect(other.versions(to, path)).toEqual(engine.versions(projectId, path));
    // This machine's folder has no other.txt and still has same-1.txt: the other line's changes stay on it.
    expect(other.files(to)).toEqual(engine.files(projectId));
    expect(other.files(to).map((f) => f.path)).not.toContain('other.txt');
    const otherNewest = other.log(to).at(-1)!.snapshotId;
    expect(other.files(to, otherNewest)).toEqual(engine.files(projectId, otherNewest));
    await expectSameSnapshots(engine, projectId, other, to);

    // A bundle of format 1 (or 2) carries neither: the same snapshots land on this machine's line, told by their kind.
    const old = join(tempDir(), 'old.hsb');
    writeFileSync(old, asFormat1(readFileSync(bundle)));
    const third = otherEngine();
    const fromOld = await third.importHistory({ file: old }, { as: tempDir() });
    expect(third.log(fromOld.projectId).some((s) => s.machine !== undefined)).toBe(false);
    expect(third.versions(fromOld.projectId, 'src/a.txt').some((v) => v.origin.fromVersionId !== null)).toBe(false);
  });

  it('continues a history with an incremental bundle, and refuses one whose base is missing, with the list', async () => {
    const { engine, root, projectId, store } = await historyWithChanges();
    const dir = tempDir();
    await engine.exportHistory(projectId, { file: join(dir, 'full.hsb') });
    writeFileSync(join(root, 'src/a.txt'), 'third edit');
    writeFileSync(join(root, 'src/fresh.txt'), 'never seen before');
    writeFileSync(join(root, 'same-3.txt'), 'same bytes'); // contents the receiver already holds
    notRacy(store);
    await engine.rescan(projectId);
    const since = 4;
    const part = await engine.exportHistory(projectId, { file: join(dir, 'part.hsb') }, { since });
    expect(part).toMatchObject({ since, first: 5, last: 5, snapshots: 1, blobs: 2, requires: 1 });

    // Without what it builds on: refused, naming what is missing, nothing imported.
    const fresh = otherEngine();
    const alone = tempDir();
    const refused = await failure(fresh.importHistory({ file: join(dir, 'part.hsb') }, { as: alone }));
    expect(refused.code).toBe('BUNDLE_PREREQUISITES');
    expect(refused.details).toMatchObject({ snapshotId: since, missingSnapshot: true, missing: [{ hash: expect.any(String), size: 10 }] });
    expect(fresh.store(fresh.locate(alone)).index.snapshotReads.latestSnapshotId()).toBeUndefined();

    const other = otherEngine();
    const moved = tempDir();
    const first = await other.importHistory({ file: join(dir, 'full.hsb') }, { as: moved });
    const next = await other.importHistory({ file: join(dir, 'part.hsb') }, { as: moved });
    expect(next).toMatchObject({ added: 1, blobsWritten: 2 });
    expect(other.log(first.projectId)).toEqual(engine.log(projectId));
    await expectSameSnapshots(engine, projectId, other, first.projectId);
  });
});
