import { describe, expect, it, onTestFinished } from 'vitest';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { joinRecordedSpellings } from '../../../electron/history/registry/joinSpellingsAtOpen.js';
import { counter } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { sha256, writeTree } from '../../helpers/writeTree.js';

// Paths recorded twice under spellings of one name, joined with the folder's rules forced to fold
// case and normalization: on ext4 the history can hold both spellings (as an older Hindsight
// recorded them on a folder that folds), and the join is then asked to treat them as one name.

const FOLDS = Object.freeze({ foldsCase: true, foldsNormalization: true });
const NFC = 'caf\u00e9.txt';
const NFD = 'cafe\u0301.txt';

function engineFor(): HistoryEngine {
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  onTestFinished(() => engine.close());
  return engine;
}

/** A history with every way one file came to be recorded under two spellings. */
async function twiceRecorded(engine: HistoryEngine, root: string): Promise<string> {
  writeTree(root, { 'README.md': 'v1\n', 'other.txt': 'x\n', 'Notes.txt': 'n1\n', 'Src/main.c': 'm1\n', [NFC]: 'crème\n' });
  const { projectId } = await engine.open(root);
  // An older Hindsight: the new spelling added beside the old, every later edit recorded under both.
  writeFileSync(join(root, 'readme.md'), 'v1\n');
  await engine.rescan(projectId);
  writeTree(root, { 'README.md': 'v2\n', 'readme.md': 'v2\n' });
  await engine.rescan(projectId);
  rmSync(join(root, 'README.md'));
  await engine.rescan(projectId);
  // Case-only and normalization-only renames, as the rename finder records them where names are exact.
  renameSync(join(root, 'Notes.txt'), join(root, 'notes.txt'));
  renameSync(join(root, 'Src'), join(root, 'src'));
  renameSync(join(root, NFC), join(root, NFD));
  await engine.rescan(projectId);
  writeFileSync(join(root, 'notes.txt'), 'n2\n');
  await engine.rescan(projectId);
  return projectId;
}

describe('paths recorded under two spellings of one name', () => {
  it('are joined into one path each, every version once, in time order', async () => {
    const engine = engineFor();
    const root = tempDir();
    const projectId = await twiceRecorded(engine, root);
    const secondReadme = engine.versions(projectId, 'readme.md').find((v) => v.snapshotId === 2)!;
    engine.setPin(projectId, { versionId: secondReadme.versionId }, true);

    const said = joinRecordedSpellings(engine.store(projectId), FOLDS);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^Joined 4 files recorded under two spellings of one name/);
    expect(said[0]).toContain('README.md, readme.md as readme.md');

    const readme = engine.versions(projectId, 'readme.md');
    expect(readme.map((v) => [v.snapshotId, v.hash])).toEqual([
      [1, sha256('v1\n')],
      [3, sha256('v2\n')],
    ]);
    expect(readme.every((v) => v.path === 'readme.md' && v.renamedFrom === null)).toBe(true);
    expect(engine.versions(projectId, 'README.md')).toEqual([]);
    const notes = engine.versions(projectId, 'notes.txt');
    expect(notes.map((v) => [v.snapshotId, v.hash])).toEqual([
      [1, sha256('n1\n')],
      [6, sha256('n2\n')],
    ]);
    expect(engine.versions(projectId, 'src/main.c').map((v) => v.snapshotId)).toEqual([1]);
    expect(engine.versions(projectId, NFD).map((v) => v.snapshotId)).toEqual([1]);
    expect(engine.deleted(projectId)).toEqual([]);
    expect(engine.files(projectId).map((f) => f.path)).toEqual([NFD, 'notes.txt', 'other.txt', 'readme.md', 'src/main.c']);
    expect(engine.emptyFolders(projectId)).toEqual([]);
    // The pin of a version that went is on the version with the same contents.
    expect(engine.pins(projectId).versions).toEqual([readme[0]!.versionId]);

    // The stat cache follows: a rescan finds nothing changed.
    const before = engine.log(projectId).length;
    await engine.rescan(projectId);
    expect(engine.log(projectId)).toHaveLength(before);
    // Marked: a second join does not even read the paths.
    const scanned = counter('spellings.scanned');
    expect(joinRecordedSpellings(engine.store(projectId), FOLDS)).toEqual([]);
    expect(counter('spellings.scanned')).toBe(scanned);
  });

  it('leaves two spellings that held different contents at once as two files', async () => {
    const engine = engineFor();
    const root = tempDir();
    writeTree(root, { 'a.txt': 'lower\n', 'A.txt': 'upper\n' });
    const { projectId } = await engine.open(root);

    const said = joinRecordedSpellings(engine.store(projectId), FOLDS);
    expect(said).toEqual(['Left A.txt and a.txt as recorded: A.txt and a.txt held different contents at snapshot 1 (two files).']);
    expect(engine.files(projectId).map((f) => f.path)).toEqual(['A.txt', 'a.txt']);
  });

  it('never runs where names are exact: a and A are two files there', async () => {
    const engine = engineFor();
    const root = tempDir();
    writeTree(root, { 'a.txt': 'same\n', 'A.txt': 'same\n' });
    const scanned = counter('spellings.scanned');
    const { projectId } = await engine.open(root);
    const reopened = await engine.open(root);
    // Not even the recorded paths are read there.
    expect(counter('spellings.scanned')).toBe(scanned);
    expect(reopened.repaired).toBeUndefined();
    expect(engine.files(projectId).map((f) => f.path)).toEqual(['A.txt', 'a.txt']);
    expect(engine.versions(projectId, 'a.txt')).toHaveLength(1);
    expect(engine.versions(projectId, 'A.txt')).toHaveLength(1);
  });
});
