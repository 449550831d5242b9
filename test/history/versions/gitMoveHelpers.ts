import { execFileSync } from 'node:child_process';
import type { SnapshotInfo } from '../../../shared/history.js';
import { sha256 } from '../../helpers/writeTree.js';
import { GIT_ENV, git } from '../git/gitFixture.js';
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

/**
 * Waits until `ready` holds or `deadlineMs` passed, whichever comes first: the assertions after it
 * then say what was recorded instead of the test timing out.
 */
