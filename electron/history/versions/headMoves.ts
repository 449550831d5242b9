import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ProjectStore } from '../project/projectStore.js';
import { commitSubject } from '../git/commitSubject.js';
import { diffTree } from '../git/diffTree.js';
import { headLogSince, headLogSize, type HeadMove } from '../git/headLog.js';
import type { HeadState } from '../git/readHead.js';
import { checkpointLabel, gitOperation, harmless, isCommit, markSeen, noMove, noteStashLog, seenOffset } from './headCheckpoint.js';
import { commitToName, gitOperationTitle } from './gitOperationTitle.js';
import { keepsHead, keptByStash, sameCommitChanges, stashCommitOf, stashPutBack } from './headMovesSameCommit.js';
import { moveChanges, type MoveRules } from './moveFromObjects.js';
import { detachedStashMoves, markStashesSeen } from './detachedStashes.js';

// One snapshot per move of HEAD. Before a change group (or a rescan) is written, the moves git
// made since the history last looked are read from HEAD's reflog. Each one whose tree is no longer
// on disk (a later checkout, rebase step or reset came before this group was written) is recorded
// on its own, from git's objects (moveFromObjects.ts), titled by its commit; the last one, when
// HEAD is still where it left it and no git command holds the index, is on disk and left to the
// group, which the before-commit hook (headCheckpoint.ts) titles. A move that keeps HEAD where it
// was (a reset --hard to HEAD, a stash) is one too: the reflog says it happened; what it put back
// is read against the history (headMovesSameCommit.ts); a stash from its commit, on disk or not,
// the edits it took first. A move that changed no file (a commit, a checkout of a commit with the
// same tree) is a snapshot with no versions: a move is in the history whether or not a file changed.
// A commit passed by a later move holds, from its tree, the edits it closed that no group recorded.

/** How long a group waits for a git command that holds the index (it is writing the working tree). */
const INDEX_LOCK_WAIT_MS = 2000;
const LOCK_POLL_MS = 10;

export interface GroupMoves {
  /** The paths the last move (its tree on disk) changed: the group records them from the disk, heard or not. */
  paths: string[];
  /** The reflog offset the group's moves end at (undefined without a reflog): a move after it is the next group's. */
  until: number | undefined;
  /** Where HEAD stood before that last move (and the reflog's offset then): the group's other files were written there, before it. */
  before?: BeforeMove;
  /** Where the last move left HEAD (undefined: where HEAD is now): the group's files are there. */
  at?: HeadState;
  /** git's index file as it stood when the moves were read (undefined: none): a checkout writes it after the files, before it moves HEAD. */
  index?: string;
}

export interface BeforeMove {
  head: string;
  branch: string | null;
  logAt: number;
}

/** Records the moves whose trees left the disk; answers what the group after them holds. */
export async function recordGoneMoves(store: ProjectStore, rules: MoveRules): Promise<GroupMoves> {
  const repo = store.git.repository();
  const latest = store.index.snapshotReads.latestSnapshotContext();
  const seen = repo ? seenOffset(store, repo.gitDir) : undefined;
  if (repo) await indexReleased(repo.gitDir);
  const index = repo ? indexStamp(repo.gitDir) : undefined;
  const logSize = repo ? headLogSize(repo.gitDir) : undefined;
  if (!repo || !latest || seen === undefined || logSize === undefined) return { paths: [], until: logSize, index };
  const now = await store.git.head();
  const stashes = await detachedStashMoves(store, repo, now);
  if (seen >= logSize && stashes.moves.length === 0) return { paths: [], until: logSize, index };
  const { moves: read, size: until } = seen >= logSize ? { moves: [], size: logSize } : headLogSince(repo.gitDir, seen);
  // A stash HEAD's reflog logged too (made on a branch, HEAD detached since) is its line's.
  const logged = (s: HeadMove) => read.some((m) => keepsHead(m) && m.to === s.to && Math.abs((m.when ?? 0) - (s.when ?? 0)) <= 2);
  const moves = [...read.filter((move) => !noMove(move)), ...stashes.moves.filter((s) => !logged(s))];
  if (moves.length === 0) {
    markStashesSeen(store, repo.gitDir, stashes.size);
    return { paths: [], until, index };
  }
  const last = moves.at(-1)!;
  const onDisk = now.head === last.to && !existsSync(join(repo.gitDir, 'index.lock'));
  // The last move is the group's (titled by the before-commit hook) when its tree is still on disk,
  // or when it wrote no file (a commit names the edits it closes); every other is a snapshot of its
  // own. So is a stash, on disk or not: its commit tells exactly what it took and what it put back.
  const kept = (onDisk && !(await stashOf(repo, last))) || harmless(last);
  const gone = kept ? moves.slice(0, -1) : moves;
  const rewrote = gone.filter((move) => !harmless(move));
  // The state before the first move that rewrote files (after the edits a stash took, when it is one): one click away.
  let mark: Checkpoint | undefined = (operation) => {
    store.index.commitSnapshot({
      snapshot: {
        kind: 'checkpoint',
        label: checkpointLabel(rewrote, latest.head, operation),
        branch: latest.branch,
        head: latest.head,
        origin: { kind: 'git', gitOperation: operation, gitWhen: 'before' },
      },
      versions: [],
      blobs: [],
    });
  };
  let branch = latest.branch;
  for (const move of gone) {
    const before = harmless(move) ? undefined : mark;
    if (before) mark = undefined;
    branch = await recordMove(store, move, branch, rules, before);
    // Recorded: a group written after this one starts past it, even after a crash.
    if (move.end !== undefined) markSeen(store, repo.gitDir, move.end);
  }
  markStashesSeen(store, repo.gitDir, stashes.size);
  // A rebase's finish after its last step took HEAD back to the branch: the step was made on none.
  const at = onDisk ? (read.at(-1) !== last && /^rebase/.test(last.subject) ? { ...now, branch: null } : now) : undefined;
  // A move that kept HEAD (a reset --hard HEAD) names no files: the group holds what was heard.
  if (!kept || harmless(last) || keepsHead(last)) return { paths: [], until, index, at };
  const changed = await diffTree(repo.workTree, last.from, last.to, repo.prefix);
  const paths = changed.filter((c) => c.path.startsWith(repo.prefix)).map((c) => c.path.slice(repo.prefix.length));
  const lastAt = moves.indexOf(last);
  const logAt = lastAt > 0 ? (moves[lastAt - 1]!.end ?? seen) : seen;
  return { paths, until, index, at, before: { head: last.from, branch: gone.length > 0 ? null : latest.branch, logAt } };
}

/** The stash commit a move that kept HEAD made (`git stash`), if it was one; a checkout never is. */
function stashOf(repo: { workTree: string; gitDir: string }, move: HeadMove): Promise<string | undefined> {
  if (!keepsHead(move) || move.subject.startsWith('checkout:')) return Promise.resolve(undefined);
  return stashCommitOf(repo.workTree, repo.gitDir, move);
}

/** Writes the checkpoint before the moves, named for the operation of the first that rewrote files. */
type Checkpoint = (operation: string) => void;

/**
 * One move whose tree left the disk, as its own snapshot from git's objects (none changed: a
 * snapshot with no versions), after the checkpoint when it is the first to rewrite files; answers
 * the branch after it.
 */
async function recordMove(store: ProjectStore, move: HeadMove, before: string | null, rules: MoveRules, checkpoint?: Checkpoint): Promise<string | null> {
  const repo = store.git.repository()!;
  if (isCommit(move)) {
    // A commit writes no file, but its tree holds the edits it closed: those the history does not
    // hold yet (made and committed within the quiet window, then HEAD moved on) are its versions,
    // so they come before the moves after it, as they were made.
    const committed = await moveChanges(store, move, rules, true);
    const subject = await commitSubject(repo.workTree, move.to);
    store.index.commitSnapshot({
      snapshot: {
        kind: 'change',
        label: gitOperationTitle('commit', [move], { oid: move.to, subject: subject ?? null }, before),
        branch: before,
        head: move.to,
        origin: { kind: 'edit' },
      },
      versions: committed.versions,
      blobs: committed.blobs,
    });
    return before;
  }
  // A checkout keeps HEAD's commit only for a new branch (it writes no file); a reset or a stash puts files back.
  const kept = keepsHead(move) && !move.subject.startsWith('checkout:');
  const stash = await stashOf(repo, move);
  if (stash) {
    await recordKeptEdits(store, stash, { head: move.to, branch: before }, rules);
    noteStashLog(store, repo.gitDir);
  }
  checkpoint?.(stash ? 'stash' : gitOperation(move));
  const changes = stash ? await stashPutBack(store, stash, rules) : kept ? await sameCommitChanges(store, move, rules) : await moveChanges(store, move, rules);
  // A move that kept HEAD stays on its branch; a checkout goes to the one it names.
  const branch = kept ? before : branchAfter(move);
  const operation = stash ? 'stash' : gitOperation(move);
  const oid = operation === 'stash' ? null : commitToName(operation, [move], move.to);
  const subject = oid ? await commitSubject(repo.workTree, oid) : undefined;
  store.index.commitSnapshot({
    snapshot: {
      kind: 'change',
      label: gitOperationTitle(operation, [move], { oid, subject: subject ?? null }, branch),
      branch,
      head: move.to,
      origin: { kind: 'git', gitOperation: operation, gitWhen: 'after' },
    },
    versions: changes.versions,
    blobs: changes.blobs,
  });
  return branch;
}

/** Edits a stash took away that the history never held: a plain change at the commit they were made on, before the stash's snapshot. */
async function recordKeptEdits(store: ProjectStore, stash: string, at: { head: string; branch: string | null }, rules: MoveRules): Promise<void> {
  const edits = await keptByStash(store, stash, rules);
  if (edits.versions.length === 0) return;
  store.index.commitSnapshot({
    snapshot: { kind: 'change', label: null, branch: at.branch, head: at.head, origin: { kind: 'edit' } },
    versions: edits.versions,
    blobs: edits.blobs,
  });
}

/**
 * Whether git moved HEAD, or wrote the working tree, while the group's files were being read: HEAD's
 * reflog grew past `until`, a git command holds the index, or the index was written anew (a
 * checkout writes the files, then the index, then HEAD and its reflog: between the two, only the
 * index tells).
 */
export function movedSince(store: ProjectStore, { until, index }: Pick<GroupMoves, 'until' | 'index'>): boolean {
  const repo = store.git.repository();
  if (!repo) return false;
  if (until !== undefined && (headLogSize(repo.gitDir) ?? 0) > until) return true;
  return existsSync(join(repo.gitDir, 'index.lock')) || indexStamp(repo.gitDir) !== index;
}

/** The index file's identity and time of change ("" when there is none): a rewrite renames a new file over it. */
function indexStamp(gitDir: string): string {
  try {
    const stat = statSync(join(gitDir, 'index'), { bigint: true });
    return `${stat.ino}:${stat.ctimeNs}:${stat.size}`;
  } catch {
    return '';
  }
}

/** The branch a checkout went to, when it names one; moves in between (rebase steps, detached checkouts) are on none. */
function branchAfter(move: HeadMove): string | null {
  const target = /^checkout: moving from .* to (.+)$/.exec(move.subject)?.[1];
  // A commit id, or a revision (main~1, v1^{}), is no branch: git refuses those characters in one.
  return target && !/^[0-9a-f]{7,64}$/.test(target) && target !== 'HEAD' && !/[~^:?*[\\\s]|@\{|\.\./.test(target) ? target : null;
}

/** Waits, a bounded while, for the git command that holds the index to finish writing the working tree. */
async function indexReleased(gitDir: string): Promise<void> {
  const lock = join(gitDir, 'index.lock');
  for (let waited = 0; waited < INDEX_LOCK_WAIT_MS && existsSync(lock); waited += LOCK_POLL_MS) {
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}
