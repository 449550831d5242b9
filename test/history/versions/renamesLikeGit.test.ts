import { beforeAll, describe, expect, it } from 'vitest';
import { findRenames } from '../../../electron/history/versions/findRenames.js';
import type { NewVersion } from '../../../electron/history/db/commitSnapshot.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { commitTrees, gitCountsLastLine, gitRenameScores, gitRenames, treeSequence, writeTreeOver, type Tree } from './renameTrees.js';
import { notRacy, openWithBaseline } from './versionsHelpers.js';

// The renames Hindsight records between two snapshots are the ones `git diff -M50%` reports
// between the same two trees: a seeded sequence of trees is recorded by the real engine (one
// rescan per tree) and committed into a real git repository, and every consecutive pair is
// compared. The engine scores as git 2.44 on does (the bytes after a file's last newline count);
// against an older git its trees end every file with a newline, and findRenames itself is compared
// on files of both kinds with the older git's scoring. Past the rename limit too, with a small
// limit on both sides (git's -l).

const STEPS = 90;

/** What a tree pair hands findRenames: the second tree's new paths, the first's removed ones. */
function changeOf(
  before: Tree,
  after: Tree,
): { added: NewVersion[]; deleted: { path: string; hash: string; size: number; type: NewVersion['type'] }[]; bytes: Map<string, Buffer> } {
  const bytes = new Map<string, Buffer>();
  const contents = (path: string, tree: Tree) => {
    const e = tree.get(path)!;
    const b = e.kind === 'link' ? Buffer.from(e.target) : e.bytes;
    const hash = `${e.kind}:${b.toString('hex')}`;
    bytes.set(hash, b);
    return { path, hash, size: b.length, type: e.kind === 'link' ? ('symlink' as const) : ('file' as const) };
  };
  const added = [...after.keys()].filter((p) => !before.has(p)).map((p) => ({ ...contents(p, after), mode: 0o644 }));
  const deleted = [...before.keys()].filter((p) => !after.has(p)).map((p) => contents(p, before));
  return { added, deleted, bytes };
}

describe('renames as git finds them', () => {
  let lastLine = true;
  beforeAll(() => {
    lastLine = gitCountsLastLine();
  });

  it(`equal git diff -M50% over ${STEPS} seeded tree pairs recorded by the engine`, async () => {
    const trees = treeSequence(20261207, STEPS, { endInNewline: !lastLine });
    const { repo, commits } = commitTrees(trees);
    const root = tempDir();
    writeTreeOver(root, undefined, trees[0]!);
    const { engine, projectId, store } = await openWithBaseline(root);
    const differences: string[] = [];
    const scores: number[] = [];
    for (let i = 1; i < trees.length; i++) {
      writeTreeOver(root, trees[i - 1], trees[i]!);
      notRacy(store);
      const { snapshotId } = await engine.rescan(projectId);
      const ours =
        snapshotId === undefined || snapshotId === null
          ? []
          : store.index.renames
              .renamesIn(snapshotId)
              .map((r) => `${r.fromPath} -> ${r.path}`)
              .sort();
      const scored = gitRenameScores(repo, commits[i - 1]!, commits[i]!);
      const theirs = scored.map((r) => r.rename);
      scores.push(...scored.map((r) => r.score));
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) differences.push(`tree ${i}: hindsight ${JSON.stringify(ours)}, git ${JSON.stringify(theirs)}`);
    }
    expect(differences).toEqual([]);
    // The sequence is worth comparing: renames of the same bytes, edited ones, some just past git's 50% mark.
    expect(scores.filter((s) => s === 100).length).toBeGreaterThan(30);
    expect(scores.filter((s) => s < 100).length).toBeGreaterThan(20);
    expect(scores.filter((s) => s < 60).length).toBeGreaterThan(3);
  });

  /** A folder going from one tree to the next, recorded by the engine; the renames it recorded, and git's between the same trees (at -M40%, with scores). */
  async function recordedAndGit(before: Record<string, string>, after: Record<string, string>) {
    const tree = (files: Record<string, string>): Tree =>
      new Map(Object.entries(files).map(([p, t]) => [p, { kind: 'file', bytes: Buffer.from(t), executable: false }]));
    const [a, b] = [tree(before), tree(after)];
    const root = tempDir();
    writeTreeOver(root, undefined, a);
    const { engine, projectId, store } = await openWithBaseline(root);
    writeTreeOver(root, a, b);
    notRacy(store);
    const { snapshotId } = await engine.rescan(projectId);
    expect(snapshotId).toBeTruthy();
    const { repo, commits } = commitTrees([a, b]);
    return { ours: snapshotId ? store.index.renames.renamesIn(snapshotId) : [], git: gitRenameScores(repo, commits[0]!, commits[1]!, '-M40%') };
  }

  it('two unrelated one-line files are no rename: they share no byte (a split on newlines shared the empty last line, 50%)', async () => {
    const { ours, git } = await recordedAndGit(
      { 'alpha.txt': 'the first unrelated sentence\n', 'keep.txt': 'k\n' },
      { 'omega.txt': 'quite another line\n', 'keep.txt': 'k\n' },
    );
    expect(git).toEqual([]);
    expect(ours).toEqual([]);
  });

  it("a file holding half another's lines in other lengths is no rename at git's 46% (its lines counted 54%)", async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${String(i).padStart(4, '0')}\n`);
    const edited = [...lines.slice(0, 5), 'other line1\n', 'other line2\n', 'other line3\n', 'another 04\n', 'another 05\n'];
    const { ours, git } = await recordedAndGit({ 'old.txt': lines.join('') }, { 'new.txt': edited.join('') });
    expect(git).toEqual([{ rename: 'old.txt -> new.txt', score: 46 }]);
    expect(ours).toEqual([]);
  });

  it('equal git diff -M50% on files with and without a last newline, and past the rename limit as git -l3', () => {
    const trees = treeSequence(7, 80);
    const { repo, commits } = commitTrees(trees);
    const differences: string[] = [];
    let skipped = 0;
    for (let i = 1; i < trees.length; i++) {
      const { added, deleted, bytes } = changeOf(trees[i - 1]!, trees[i]!);
      const ours = (limit?: number) =>
        findRenames(added, deleted, (hash) => [bytes.get(hash)!], { lastLine, limit })
          .map((r) => `${r.fromPath} -> ${r.path}`)
          .sort();
      const theirs = gitRenames(repo, commits[i - 1]!, commits[i]!);
      const theirsLimited = gitRenames(repo, commits[i - 1]!, commits[i]!, '-l3');
      if (JSON.stringify(theirs) !== JSON.stringify(theirsLimited)) skipped++;
      for (const [mine, git] of [
        [ours(), theirs],
        [ours(3), theirsLimited],
      ]) {
        if (JSON.stringify(mine) !== JSON.stringify(git)) differences.push(`tree ${i}: hindsight ${JSON.stringify(mine)}, git ${JSON.stringify(git)}`);
      }
    }
    expect(differences).toEqual([]);
    // The limit changed git's answer in some pairs.
    expect(skipped).toBeGreaterThan(0);
  });
});
