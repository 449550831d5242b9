import type { ProjectStore } from '../project/projectStore.js';
import { noteSeenOffset, seenOffsetIn } from './reflogOffsets.js';
import { shortenHashes } from '../../../shared/shortHash.js';
import { commitSubject } from '../git/commitSubject.js';
import { headLogSince, headLogSize, stashLogSize, type HeadMove } from '../git/headLog.js';
import type { GroupCause } from './commitHooks.js';
import { commitToName, gitOperationTitle } from './gitOperationTitle.js';

// When git moved HEAD (checkout, reset, rebase, pull) since the history last looked, the state
// the history holds now is the one from just before: a labelled checkpoint marks it, ahead of the
// change group that records what git rewrote, so restoring the checkpoint brings back what a
// `reset --hard` or a `checkout -f` threw away. Runs before every change group is written. It
// reads git through the store's GitContext (git/ only reads); the checkpoint is written here.
// Its answer names the operation for the group after it in the user's words ("Checked out
// `a1b2c3d` Teach the router about blueprints, on main": gitOperationTitle.ts).
//
// `git stash` shows in HEAD's reflog as "reset: moving to HEAD", and `stash pop` not at all:
// the stash's own reflog growing or shrinking since the last look tells them apart.

/** The reflog offset the last look reached, per git folder: meta 'git.headLog'. */
const SEEN_KEY = 'git.headLog';
/** The size of the stash's reflog at the last look, per git folder: meta 'git.stashLog'. */
const STASH_KEY = 'git.stashLog';
/** A commit moves HEAD without touching a file: nothing to protect. */
const ONLY_COMMITS = /^commit( \((initial|amend|merge)\))?:/;
const SHORT = 7;

export interface HeadCheckpoint {
  /** None when only commits moved HEAD: they rewrote no file, so nothing needs marking. */
  checkpointId: number | undefined;
  /** What the change group after the checkpoint records: the files the operation wrote. */
  after: GroupCause;
}

/** `changesFiles`: whether the group after it changes any file (a move that changes none needs no checkpoint: nothing is thrown away). */
export async function headCheckpoint(store: ProjectStore, changesFiles = true): Promise<HeadCheckpoint | undefined> {
  const repo = store.git.repository();
  const latest = store.index.snapshotReads.latestSnapshotContext();
  if (!repo || !latest) return undefined;
  const seen = seenOffset(store, repo.gitDir);
  const now = await store.git.head();
  // Where the group's files are: HEAD when the moves it holds were read (git may have moved on since: that move is the next group's).
  const at = store.git.pinnedHead() ?? now;
  const logSize = headLogSize(repo.gitDir);
  let moves: HeadMove[];
  let size = logSize;
  if (seen !== undefined && logSize !== undefined && seen <= logSize) {
    ({ moves, size } = headLogSince(repo.gitDir, seen, store.git.pinnedHeadLog()));
  } else {
    // No reflog, none seen yet, or it was expired: compare with the commit the latest snapshot recorded.
    moves = latest.head && now.head && latest.head !== now.head ? [{ from: latest.head, to: now.head, subject: '' }] : [];
  }
  moves = moves.filter((move) => !noMove(move));
  const risky = moves.filter((move) => !harmless(move));
  // Asked only when a move or a file change goes with it: a group that meets a stash before its
  // reset is done (no line yet, no file put back) leaves it to the group after.
  const stash = changesFiles || risky.length > 0 ? stashChange(store, repo.gitDir) : undefined;
  let result: HeadCheckpoint | undefined;
  // A stash's reflog that shrank with no file changed is a `stash drop`, which moves nothing.
  if (risky.length > 0 || (stash === 'popped' && changesFiles)) {
    const operation = stash === 'pushed' && risky.every(isResetToHead) ? 'stash' : risky.length === 0 ? 'stash pop' : gitOperation(risky[0]!);
    const label = operation.startsWith('stash') ? `Before ${operation} (${(latest.head ?? '').slice(0, SHORT)})` : checkpointLabel(risky, latest.head);
    // Asked before the checkpoint is written: the checkpoint and the reflog mark below stay one step.
    // The files now are what the last move wrote: the group after is named for it.
    const done = operation.startsWith('stash') ? operation : gitOperation(risky.at(-1)!);
    const oid = done.startsWith('stash') ? null : commitToName(done, risky, at.head);
    const subject = oid ? await commitSubject(repo.workTree, oid) : undefined;
    const title = gitOperationTitle(done, risky, { oid, subject: subject ?? null }, at.branch);
    const checkpointId = changesFiles
      ? store.index.commitSnapshot({
          snapshot: {
            kind: 'checkpoint',
            label,
            branch: latest.branch,
            head: latest.head,
            origin: { kind: 'git', gitOperation: operation, gitWhen: 'before' },
          },
          versions: [],
          blobs: [],
        })
      : undefined;
    result = { checkpointId, after: { origin: { kind: 'git', gitOperation: done, gitWhen: 'after' }, label: title } };
  } else if (moves.some((move) => ONLY_COMMITS.test(move.subject)) && at.head) {
    // The group a commit closed holds the edits it committed: named by that commit.
    const subject = await commitSubject(repo.workTree, at.head);
    const title = gitOperationTitle('commit', moves, { oid: at.head, subject: subject ?? null }, at.branch);
    // The bytes are the user's edits, not git's: their origin stays an edit.
    result = { checkpointId: undefined, after: { origin: { kind: 'edit' }, label: title } };
  } else if (moves.length > 0 && at.head) {
    // A checkout to a new branch at the same commit (`git switch -c`): no file changes, HEAD moves all the same.
    const subject = await commitSubject(repo.workTree, at.head);
    const title = gitOperationTitle('checkout', moves, { oid: at.head, subject: subject ?? null }, at.branch);
    result = { checkpointId: undefined, after: { origin: { kind: 'git', gitOperation: 'checkout', gitWhen: 'after' }, label: title } };
  }
  // Written only when it moved: a periodic check that finds nothing writes nothing.
  if (size !== undefined && seenOffsetIn(store, SEEN_KEY, repo.gitDir) !== size) noteSeenOffset(store, SEEN_KEY, repo.gitDir, size);
  return result;
}

/** The operation a reflog line records, as git names it: "checkout", "reset", "merge", "pull", "rebase"... */
export function gitOperation(move: HeadMove): string {
  const word = move.subject
    .split(':')[0]!
    .replace(/ \(.*\)$/, '')
    .trim()
    .split(' ')[0];
  return word || 'HEAD move';
}

function isResetToHead(move: HeadMove): boolean {
  return move.subject === 'reset: moving to HEAD';
}

/** A stash recorded as a move (headMoves.ts): the stash's reflog as it stands now is looked at, so a pop after it shows as one. */
export function noteStashLog(store: ProjectStore, gitDir: string): void {
  stashChange(store, gitDir);
}

/** Whether the stash's reflog grew (a stash) or shrank (a pop or drop) since the last look; remembers its size now. */
function stashChange(store: ProjectStore, gitDir: string): 'pushed' | 'popped' | undefined {
  const now = stashLogSize(gitDir);
  const raw = store.index.getMeta(STASH_KEY);
  let before: number | undefined;
  try {
    const seen = raw ? (JSON.parse(raw) as { gitDir?: unknown; size?: unknown }) : undefined;
    before = seen?.gitDir === gitDir && typeof seen.size === 'number' ? seen.size : undefined;
  } catch {
    before = undefined;
  }
  if (before !== now) store.index.setMeta(STASH_KEY, JSON.stringify({ gitDir, size: now }));
  if (before === undefined) return undefined;
  return now > before ? 'pushed' : now < before ? 'popped' : undefined;
}

/**
 * A line of HEAD's reflog that is no move: a checkout of the branch HEAD is on ("moving from main
 * to main"), and a rebase's finish (HEAD goes back to the branch, at the commit its last step made:
 * the steps are the moves).
 */
export function noMove(move: HeadMove): boolean {
  if (move.from !== move.to) return false;
  const checkout = /^checkout: moving from (.*) to (.*)$/.exec(move.subject);
  return (checkout !== null && checkout[1] === checkout[2]) || /^rebase( -i| -m)? \(finish\)/.test(move.subject);
}

/** A commit (amended, merged, the first): HEAD moves, no file is written. */
export function isCommit(move: HeadMove): boolean {
  return ONLY_COMMITS.test(move.subject);
}

/** A commit touches no file; a checkout that stays on the same commit (a new branch) neither. */
export function harmless(move: HeadMove): boolean {
  return ONLY_COMMITS.test(move.subject) || (move.from === move.to && move.subject.startsWith('checkout:'));
}

/** "Before checkout to main (a1b2c3d)", "Before HEAD moved: reset (a1b2c3d)", "Before stash (a1b2c3d)" (the first move's operation, when git's words do not tell it). */
export function checkpointLabel(moves: readonly HeadMove[], recordedHead: string | null, operation?: string): string {
  const first = moves[0]!;
  const at = (recordedHead ?? first.from).slice(0, SHORT);
  const checkout = /^checkout: moving from .* to (.+)$/.exec(first.subject);
  const verb = first.subject
    .split(':')[0]!
    .replace(/ \(.*\)$/, '')
    .trim();
  let label = checkout
    ? `Before checkout to ${checkout[1]} (${at})`
    : operation === 'stash'
      ? `Before stash (${at})`
      : verb
        ? `Before HEAD moved: ${verb} (${at})`
        : `Before HEAD moved (${at} to ${first.to.slice(0, SHORT)})`;
  if (moves.length > 1) label += ` and ${moves.length - 1} more`;
  return shortenHashes(label)
    .replace(/[\0\r\n]/g, ' ')
    .slice(0, 200);
}

/** Moves before the later of the last look and the last snapshot are already in the history. */
function latestOf(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

/**
 * The reflog offset up to which HEAD's moves are in the history. Never looked at yet (a history
 * just copied, a new process): just past the reflog's last move to the commit the latest snapshot
 * recorded, so the moves after it are each told apart, not guessed as one.
 */
export function seenOffset(store: ProjectStore, gitDir: string): number | undefined {
  const seen = latestOf(seenOffsetIn(store, SEEN_KEY, gitDir), store.git.headLogAtLastSnapshot());
  if (seen !== undefined) return seen;
  const head = store.index.snapshotReads.latestSnapshotContext()?.head;
  if (!head) return undefined;
  const { moves } = headLogSince(gitDir, 0);
  for (let i = moves.length - 1; i >= 0; i--) if (moves[i]!.to === head) return moves[i]!.end;
  return undefined;
}

/** Notes that HEAD's moves up to `size` of the reflog are in the history. */
export function markSeen(store: ProjectStore, gitDir: string, size: number): void {
  noteSeenOffset(store, SEEN_KEY, gitDir, size);
  store.git.noteHeadLog(size);
}
