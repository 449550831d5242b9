import { describe, expect, it } from 'vitest';
import { git, tempDir } from '../git/gitFixture.js';
import { gitRenames } from './renameTrees.js';
import { notRacy, openWithBaseline } from './versionsHelpers.js';

// Opt-in: a real repository's history replayed into a folder the engine records, one rescan per
// first-parent commit, and each consecutive pair of snapshots' renames compared with
// `git diff -M50% --name-status` between the two commits. Set HINDSIGHT_REPLAY_REPO to a git
// repository to clone (a local path: nothing is downloaded), HINDSIGHT_REPLAY_COMMITS to how many
// commits (default 80), HINDSIGHT_REPLAY_END to the newest one (default HEAD). The figures are
// printed: commits, pairs compared, renames, differences.

const REPO = process.env.HINDSIGHT_REPLAY_REPO;
const COMMITS = Number(process.env.HINDSIGHT_REPLAY_COMMITS ?? 80);
const END = process.env.HINDSIGHT_REPLAY_END ?? 'HEAD';

describe.skipIf(!REPO)('renames over a replayed repository (opt-in: set HINDSIGHT_REPLAY_REPO to a git repository)', () => {
  it(
    `equal git diff -M50% over ${COMMITS} first-parent commits`,
    async () => {
      const root = tempDir('replay');
      git(root, 'clone', '-q', '--no-checkout', REPO!, '.');
      const commits = git(root, 'rev-list', '--first-parent', '--reverse', `--max-count=${COMMITS}`, END).split('\n');
      git(root, 'checkout', '-q', '--force', '--detach', commits[0]!);
      const { engine, projectId, store } = await openWithBaseline(root);
      const differences: string[] = [];
      let renames = 0;
      for (let i = 1; i < commits.length; i++) {
        git(root, 'checkout', '-q', '--force', '--detach', commits[i]!);
        notRacy(store);
        const { snapshotId } = await engine.rescan(projectId);
        const ours = snapshotId
          ? store.index.renames
              .renamesIn(snapshotId)
              .map((r) => `${r.fromPath} -> ${r.path}`)
              .sort()
          : [];
        const theirs = gitRenames(root, commits[i - 1]!, commits[i]!);
        renames += theirs.length;
        if (JSON.stringify(ours) !== JSON.stringify(theirs))
          differences.push(`${commits[i]}: hindsight ${JSON.stringify(ours)}, git ${JSON.stringify(theirs)}`);
      }
      console.log(
        `replay of ${REPO} to ${END}: ${commits.length} commits, ${commits.length - 1} pairs compared, ${renames} renames (git), ${differences.length} differences`,
      );
      expect(differences).toEqual([]);
    },
    30 * 60_000,
  );
});
