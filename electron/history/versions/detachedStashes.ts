import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLine, stashLogSize, type HeadMove } from '../git/headLog.js';
import type { HeadState } from '../git/readHead.js';
import { runGit } from '../git/runGit.js';
import type { ProjectStore } from '../project/projectStore.js';
import { noteSeenOffset, seenOffsetIn } from './reflogOffsets.js';

// A `git stash` on a detached HEAD leaves no line in HEAD's reflog (its reset keeps HEAD where it
// was, and git logs nothing for a detached HEAD that stayed): the stash's own reflog is its only
// trace. Each entry written since the last look, on top of the detached HEAD, stands for the move
// a stash on a branch logs ("reset: moving to HEAD", at the entry's time), and headMoves.ts
// records it as any stash: the edits it took, then what it put back.

/** The stash's reflog size up to which its entries were looked at, per git folder: meta 'git.stashMoves'. */
const SEEN_KEY = 'git.stashMoves';
const RESET_TO_HEAD = 'reset: moving to HEAD';

export interface DetachedStashes {
  moves: HeadMove[];
  /** The stash's reflog size they were read up to (`markStashesSeen` once they are recorded). */
  size: number;
}

export async function detachedStashMoves(store: ProjectStore, repo: { workTree: string; gitDir: string }, head: HeadState): Promise<DetachedStashes> {
  const size = stashLogSize(repo.gitDir);
  const seen = seenOffsetIn(store, SEEN_KEY, repo.gitDir);
  // Never looked (a history just opened): the stashes before it are not this history's moves. On a
  // branch, a stash is told by HEAD's reflog.
  if (seen === undefined || seen > size || head.branch !== null || !head.head) {
    markStashesSeen(store, repo.gitDir, size);
    return { moves: [], size };
  }
  if (seen === size) return { moves: [], size };
  let log: Buffer;
  try {
    log = readFileSync(join(repo.gitDir, 'logs', 'refs', 'stash'));
  } catch {
    return { moves: [], size };
  }
  const moves: HeadMove[] = [];
  for (const line of log.subarray(seen, size).toString('utf8').split('\n')) {
    const entry = parseLine(line);
    if (!entry || entry.when === undefined) continue;
    const parent = await runGit(['rev-parse', '--verify', '--quiet', `${entry.to}^1`], { cwd: repo.workTree, okCodes: [0, 1, 128] });
    if (parent.stdout.toString('utf8').trim() === head.head) moves.push({ from: head.head, to: head.head, subject: RESET_TO_HEAD, when: entry.when });
  }
  return { moves, size };
}

/** Notes that the stash's entries up to `size` of its reflog are in the history. */
export function markStashesSeen(store: ProjectStore, gitDir: string, size: number): void {
  if (seenOffsetIn(store, SEEN_KEY, gitDir) !== size) noteSeenOffset(store, SEEN_KEY, gitDir, size);
}
