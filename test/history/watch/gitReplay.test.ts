import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FileEntry, SnapshotInfo } from '../../../shared/history.js';
import { cliJson, finished, startCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { GIT_ENV, git } from '../git/gitFixture.js';
import { firstParentCommits } from '../../bench/density/gitReplay.js';
import { until } from '../../helpers/until.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { gitRenames } from '../versions/renameTrees.js';

// The replay of a real repository's history under the real recorder (`hindsight watch --all`, the
// built CLI): a clone of HINDSIGHT_REPLAY_REPO (e.g. a fetched mirror of pallets/flask) is checked
// out at its first-parent commits one after another, HINDSIGHT_REPLAY_SPACING_MS apart (1 s,
// faster than the 2 s quiet window), HINDSIGHT_REPLAY_COMMITS moves (60). Then every checkout must
// be one snapshot titled by its commit, and each snapshot's tree must equal `git ls-tree` of its
// commit (the bytes by SHA-256), and the renames the engine lists for it (the versions' renamedFrom,
// as the viewer and `log PATH` show them) must equal `git diff -M50% --name-status` between the
// commit before and it. HINDSIGHT_REPLAY_END names the newest commit replayed (HEAD by default):
// Flask's 90 first-parent commits up to 70602a1 hold 12 renames. Opt-in: it needs a repository and
// a minute or two.

const REPO = process.env.HINDSIGHT_REPLAY_REPO;
const MOVES = Number(process.env.HINDSIGHT_REPLAY_COMMITS ?? 60);
const SPACING_MS = Number(process.env.HINDSIGHT_REPLAY_SPACING_MS ?? 1000);
const END = process.env.HINDSIGHT_REPLAY_END ?? 'HEAD';

describe.skipIf(!REPO)('a replay of a real history under hindsight watch --all (set HINDSIGHT_REPLAY_REPO to a git repository to run it)', () => {
  it(`gives one snapshot per checkout, named by its commit, whose tree is the commit's`, { timeout: 600_000 }, async () => {
    const root = tempDir('hindsight-replay-');
    const data = tempDir('hindsight-data-');
    git(root, 'clone', '-q', '--no-checkout', REPO!, '.');
    const replayed = firstParentCommits(root, MOVES + 1, END);
    const commits = replayed.map((c) => c.hash);
    git(root, 'checkout', '-q', commits[0]!);
    await cliJson(['open', root, '--data-dir', data]);

    const watch = startCli(['watch', '--all', '--data-dir', data, '--json']);
    const done = finished(watch);
    // With --json the start is told on stdout: {"watching":true,"projects":1}.
    let out = '';
    watch.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await until(() => out.includes('"watching":true'), { deadlineMs: 60_000 });
    for (const commit of commits.slice(1)) {
      git(root, 'checkout', '-q', commit);
      await new Promise((resolve) => setTimeout(resolve, SPACING_MS));
    }
    const last = `Checked out \`${commits.at(-1)!.slice(0, 7)}\``;
    let log: SnapshotInfo[] = [];
    await until(async () => (log = await cliJson<SnapshotInfo[]>(['log', root, '--data-dir', data])).some((s) => s.label?.startsWith(last)), {
      deadlineMs: 120_000,
      everyMs: 500,
    });
    watch.kill('SIGINT');
    expect((await done).code).toBe(0);
    log = await cliJson<SnapshotInfo[]>(['log', root, '--data-dir', data]);

    const changes = log.filter((s) => s.kind === 'change');
    const blobs = new BlobHashes(root);
    const missing: string[] = [];
    const mismatched: string[] = [];
    // A checkout to a commit whose tree is the one before's (a merge that brought nothing new on
    // the first-parent line) changes no file: it is a snapshot all the same, with no versions.
    let unchanged = 0;
    for (const [i, commit] of commits.entries()) {
      if (i === 0) continue;
      const title = `Checked out \`${commit.slice(0, 7)}\` ${replayed[i]!.subject}`;
      const named = changes.filter((s) => s.label === title);
      if (git(root, 'rev-parse', `${commits[i - 1]}^{tree}`) === git(root, 'rev-parse', `${commit}^{tree}`)) unchanged++;
      if (named.length !== 1) {
        missing.push(`${commit.slice(0, 7)}: ${named.length} snapshots`);
        continue;
      }
      const files = await cliJson<FileEntry[]>(['files', root, '--at', String(named[0]!.snapshotId), '--data-dir', data]);
      const recorded = files.map((f) => `${f.path}\0${f.hash}`).sort();
      const expected = Object.entries(blobs.tree(commit))
        .map(([path, hash]) => `${path}\0${hash}`)
        .sort();
      if (recorded.join('\n') !== expected.join('\n')) mismatched.push(commit.slice(0, 7));
    }
    const extra = changes.filter((s) => !s.label?.startsWith('Checked out `'));
    const renames = renamesLikeGit(root, data, commits, changes);
    console.log(
      `replay: ${commits.length - 1} checkouts (${unchanged} to an identical tree), ${changes.length} change snapshots, ` +
        `${commits.length - 1 - missing.length} named by their commit, ` +
        `${mismatched.length} trees unlike git ls-tree, ${extra.length} other snapshots; ` +
        `${renames.pairs} pairs of consecutive snapshots, ${renames.count} renames (git), ${renames.differences.length} rename differences`,
    );
    expect({ missing, mismatched, extra: extra.map((s) => s.label), renames: renames.differences }).toEqual({
      missing: [],
      mismatched: [],
      extra: [],
      renames: [],
    });
  });
});

/**
 * For each checkout's snapshot, the renames the engine lists (each added path's version there with
 * its renamedFrom) against `git diff -M50% --name-status` from the commit before (none for a
 * snapshot with no versions: an identical tree, where git lists none either).
 */
function renamesLikeGit(root: string, data: string, commits: string[], changes: SnapshotInfo[]): { pairs: number; count: number; differences: string[] } {
  const engine = new HistoryEngine(data);
  try {
    const projectId = engine.locate(root);
    const differences: string[] = [];
    let count = 0;
    for (const [i, commit] of commits.entries()) {
      if (i === 0) continue;
      const snapshot = changes.find((s) => s.head === commit && s.label?.startsWith(`Checked out \`${commit.slice(0, 7)}\``));
      const added = snapshot ? engine.snapshotChanges(projectId, snapshot.snapshotId).filter((c) => c.change === 'added') : [];
      const ours = added
        .flatMap((c) => engine.versions(projectId, c.path).filter((v) => v.versionId === c.versionId && v.renamedFrom !== null))
        .map((v) => `${v.renamedFrom} -> ${v.path}`)
        .sort();
      const theirs = gitRenames(root, commits[i - 1]!, commit);
      count += theirs.length;
      if (JSON.stringify(ours) !== JSON.stringify(theirs))
        differences.push(`${commit.slice(0, 7)}: hindsight ${JSON.stringify(ours)}, git ${JSON.stringify(theirs)}`);
    }
    return { pairs: commits.length - 1, count, differences };
  } finally {
    engine.close();
  }
}

/** A commit's files as path -> SHA-256 of their bytes (a link: of its target), from `git ls-tree` and `git cat-file`. */
class BlobHashes {
  private readonly known = new Map<string, string>();

  constructor(private readonly root: string) {}

  tree(commit: string): Record<string, string> {
    const entries = execFileSync('git', ['ls-tree', '-r', '-z', '--full-tree', commit], { cwd: this.root, env: GIT_ENV })
      .toString('utf8')
      .split('\0')
      .filter(Boolean)
      .map((record) => {
        const [meta, path] = record.split('\t') as [string, string];
        return { oid: meta.split(' ')[2]!, type: meta.split(' ')[1], path };
      })
      .filter((e) => e.type === 'blob');
    return Object.fromEntries(entries.map((e) => [e.path, this.hashOf(e.oid)]));
  }

  private hashOf(oid: string): string {
    let hash = this.known.get(oid);
    if (!hash) {
      hash = createHash('sha256')
        .update(execFileSync('git', ['cat-file', 'blob', oid], { cwd: this.root, env: GIT_ENV, maxBuffer: 256 * 1024 * 1024 }))
        .digest('hex');
      this.known.set(oid, hash);
    }
    return hash;
  }
}
