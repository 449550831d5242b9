import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLine, type HeadMove } from '../git/headLog.js';
import { runGit } from '../git/runGit.js';
import type { ProjectStore } from '../project/projectStore.js';
import { moveChanges, type MoveChanges, type MoveRules } from './moveFromObjects.js';

// A move of HEAD that leaves it where it was (`git reset --hard HEAD`, `git stash`) still rewrites
// files: every tracked file that differed from the commit is put back. No two trees name them, so
// once the disk has moved on (a later move came before the group was written) they are found
// against the history: each file of the commit whose recorded version differs from the commit's
// bytes (moveFromObjects.ts, from the empty tree to the commit). Edits heard but never recorded
// before the move put them back are not in the history, and cannot be told. A stash and a reset
// write the same line in HEAD's reflog ("reset: moving to HEAD"); a stash also writes one in the
// stash's reflog, in the same second, for a commit whose first parent is HEAD.

const RESET_TO_HEAD = 'reset: moving to HEAD';

export function keepsHead(move: HeadMove): boolean {
  return move.from === move.to;
}

/** What a move that kept HEAD at `move.to` put back, as versions against the history's latest. */
export async function sameCommitChanges(store: ProjectStore, move: HeadMove, rules: MoveRules): Promise<MoveChanges> {
  const repo = store.git.repository();
  if (!repo) return { versions: [], blobs: [], paths: [] };
  // The empty tree's id depends on the repository's hash (SHA-1 or SHA-256): git computes it.
  const { stdout } = await runGit(['hash-object', '-t', 'tree', '--stdin'], { cwd: repo.workTree, input: Buffer.alloc(0) });
  return moveChanges(store, { ...move, from: stdout.toString('utf8').trim() }, rules);
}

/** Whether a move that kept HEAD was a `git stash`: an entry of the stash's reflog written in the same second, on top of HEAD. */
export async function isStash(workTree: string, gitDir: string, move: HeadMove): Promise<boolean> {
  if (move.subject !== RESET_TO_HEAD || move.when === undefined) return false;
  let log: string;
  try {
    log = readFileSync(join(gitDir, 'logs', 'refs', 'stash'), 'utf8');
  } catch {
    return false;
  }
  for (const line of log.split('\n')) {
    const entry = parseLine(line);
    if (entry?.when !== move.when) continue;
    const parent = await runGit(['rev-parse', '--verify', '--quiet', `${entry.to}^1`], { cwd: workTree, okCodes: [0, 1, 128] });
    if (parent.stdout.toString('utf8').trim() === move.to) return true;
  }
  return false;
}
