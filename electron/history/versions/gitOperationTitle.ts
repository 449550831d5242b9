import { shortenHashes, shortHash } from '../../../shared/shortHash.js';
import type { HeadMove } from '../git/headLog.js';

// The title of the change group a git operation wrote (the last of the moves since the history
// last looked: the files are what it left), in the words people use for it: the
// commit by its short id and subject line, and the branch ("Checked out `a1b2c3d` Teach the
// router about blueprints, on main"; "Reset --hard to `a1b2c3d` ..."; "Rebase onto ..."; "Merge
// branch topic"; "Pull"; "Stash"; "Stash pop").

/** A commit named as git shows it in one line: its id and subject (null when unknown). */
export interface NamedCommit {
  oid: string | null;
  subject: string | null;
}

const MOST_CHARS = 200;

/** The commit the title names: where a rebase started from (its "onto"), else where HEAD is now. */
export function commitToName(operation: string, moves: readonly HeadMove[], headNow: string | null): string | null {
  if (operation === 'rebase') {
    const start = lastMove(moves, (m) => /^rebase( -i| -m)? \(start\)/.test(m.subject));
    if (start) return start.to;
  }
  return headNow;
}

export function gitOperationTitle(operation: string, moves: readonly HeadMove[], commit: NamedCommit, branch: string | null): string {
  const named = commitText(commit);
  const on = branch ? `, on ${branch}` : '';
  let title: string;
  switch (operation) {
    case 'stash':
      title = 'Stash';
      break;
    case 'stash pop':
      title = 'Stash pop';
      break;
    case 'checkout':
    case 'switch':
      title = named ? `Checked out ${named}${on}` : `Checked out ${checkoutTarget(moves) ?? 'a commit'}`;
      break;
    case 'reset':
      title = named ? `Reset --hard to ${named}` : 'Reset --hard';
      break;
    case 'rebase':
      // A step of a rebase (a commit picked again) is named by the commit it made.
      if (isRebaseStep(moves)) title = named ? `Rebase: applied ${named}${on}` : `Rebase step${on}`;
      else title = named ? `Rebase onto ${named}${on}` : `Rebase${on}`;
      break;
    case 'commit':
      title = named ? `Committed ${named}${on}` : `Commit${on}`;
      break;
    case 'merge':
      title = `Merge ${mergedName(moves)}${on}`;
      break;
    case 'pull':
      title = named ? `Pull to ${named}${on}` : `Pull${on}`;
      break;
    default:
      title = `${operation.charAt(0).toUpperCase()}${operation.slice(1)}${named ? ` to ${named}` : ''}${on}`;
  }
  return shortenHashes(title)
    .replace(/[\0\r\n]/g, ' ')
    .slice(0, MOST_CHARS);
}

/** "`a1b2c3d` Teach the router about blueprints", "" when the commit is unknown. */
function commitText(commit: NamedCommit): string {
  if (!commit.oid) return '';
  return commit.subject ? `\`${shortHash(commit.oid)}\` ${commit.subject}` : `\`${shortHash(commit.oid)}\``;
}

function checkoutTarget(moves: readonly HeadMove[]): string | undefined {
  return /^checkout: moving from .* to (.+)$/.exec(lastMove(moves, (m) => m.subject.startsWith('checkout:'))?.subject ?? '')?.[1];
}

/** "merge topic: Fast-forward" -> "branch topic"; a commit merged by its id -> "`a1b2c3d`". */
function mergedName(moves: readonly HeadMove[]): string {
  const what = /^merge (.+?):/.exec(lastMove(moves, (m) => m.subject.startsWith('merge '))?.subject ?? '')?.[1];
  if (!what) return 'of another branch';
  return /^[0-9a-f]{7,64}$/.test(what) ? `\`${shortHash(what)}\`` : `branch ${what}`;
}

const REBASE_STEP = /^rebase( -i| -m)? \((pick|continue|squash|fixup|reword|edit)\)/;

/** Steps of a rebase (a commit picked again, "rebase (pick)", "rebase -i (squash)"...), perhaps its finish, not its start. */
function isRebaseStep(moves: readonly HeadMove[]): boolean {
  return moves.some((m) => REBASE_STEP.test(m.subject)) && moves.every((m) => REBASE_STEP.test(m.subject) || /^rebase( -i| -m)? \(finish\)/.test(m.subject));
}

function lastMove(moves: readonly HeadMove[], test: (move: HeadMove) => boolean): HeadMove | undefined {
  for (let i = moves.length - 1; i >= 0; i--) if (test(moves[i]!)) return moves[i];
  return undefined;
}
