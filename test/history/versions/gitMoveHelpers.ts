import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SnapshotInfo } from '../../../shared/history.js';
import { sha256 } from '../../helpers/writeTree.js';
import { until } from '../../helpers/until.js';
import { GIT_ENV, git, makeRepo, write } from '../git/gitFixture.js';
import { versionsOf, type Project } from './versionsHelpers.js';

// What git says a move changed, to compare with the snapshot Hindsight recorded for it: the paths
// `git diff --name-status --no-renames` lists between two commits, each with the SHA-256 of the
// bytes the later commit holds (null for a deletion), as versionsOf answers a snapshot.

export function gitChanges(root: string, from: string, to: string): Record<string, string | null> {
  const changes: Record<string, string | null> = {};
  const listed = git(root, 'diff', '--name-status', '--no-renames', from, to);
  for (const line of listed.split('\n').filter(Boolean)) {
    const [status, path] = line.split('\t') as [string, string];
    changes[path] = status === 'D' ? null : sha256(execFileSync('git', ['show', `${to}:${path}`], { cwd: root, env: GIT_ENV }));
  }
  return changes;
}

/** The change snapshots after the baseline (checkpoints left out), oldest first. */
export function changeSnapshots(project: Project): SnapshotInfo[] {
  return project.engine.log(project.projectId).filter((s) => s.kind === 'change');
}

/** The snapshot's files as path -> hash, for comparing with gitChanges. */
export function recorded(project: Project, snapshot: SnapshotInfo): Record<string, string | null> {
  return versionsOf(project.store, snapshot.snapshotId);
}

export function short(root: string, rev: string): string {
  return git(root, 'rev-parse', '--short=7', rev);
}

export function subjectOf(root: string, rev: string): string {
  return git(root, 'log', '-1', '--format=%s', rev);
}

/** Watches the project; resolves once the rescan a watch starts with is written (what changed before the watch was in place). */
export async function watched(project: Project, quietMs: number): Promise<void> {
  let groups = 0;
  await project.engine.watch(project.projectId, { quietMs, maxGroupMs: 20_000, onGroup: () => groups++ });
  await until(() => groups > 0);
}

/** Lets a little time pass between two git commands: a fraction of the quiet window, no synchronisation. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A repository whose main holds `count` commits after the first, each adding, changing and deleting files; keep.txt and notes.txt no commit changes. */
export function repoWithCommits(count: number): { root: string; commits: string[] } {
  const root = makeRepo({
    'keep.txt': 'kept\n',
    'notes.txt': 'notes\n',
    'flip.txt': 'A\n',
    'gone-later.txt': 'x\n',
    'src/mod.ts': 'export const v = 0;\n',
  });
  const commits = [git(root, 'rev-parse', 'HEAD')];
  for (let i = 1; i <= count; i++) {
    write(root, 'src/mod.ts', `export const v = ${i};\n`);
    write(root, 'flip.txt', i % 2 === 1 ? 'B\n' : 'A\n');
    write(root, `added/file${i}.txt`, `added by commit ${i}\n`);
    if (i === 2) rmSync(join(root, 'gone-later.txt'));
    if (i === 4) write(root, 'gone-later.txt', 'back again\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', `Commit number ${i}`);
    commits.push(git(root, 'rev-parse', 'HEAD'));
  }
  git(root, 'checkout', '-q', commits[0]!);
  return { root, commits };
}
