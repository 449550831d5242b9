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
// before the move put them back are not in the history, and cannot be told, except a stash's: its
// commit holds them (keptByStash). A stash and a reset
// write the same line in HEAD's reflog ("reset: moving to HEAD"); a stash also writes one in the
// stash's reflog, just before (the same second, or one or two before on a loaded machine), for a
// commit whose first parent is HEAD.

const RESET_TO_HEAD = 'reset: moving to HEAD';

export function keepsHead(move: HeadMove): boolean {
  return move.from === move.to;
}

/** What a move that kept HEAD at `move.to` put back, as versions against the history's latest. */
export async function sameCommitChanges(store: ProjectStore, move: HeadMove, rules: MoveRules): Promise<MoveChanges> {
  const repo = store.git.repository();
  if (!repo) return { versions: [], blobs: [], paths: [] };
  return moveChanges(store, { ...move, from: await emptyTree(repo.workTree) }, rules);
}

/** Whether a move that kept HEAD was a `git stash`: an entry of the stash's reflog written just before, on top of HEAD. */
export async function isStash(workTree: string, gitDir: string, move: HeadMove): Promise<boolean> {
  return (await stashCommitOf(workTree, gitDir, move)) !== undefined;
}

/** How long before its reset a stash's commit may be written (a loaded machine): seconds. */
const STASH_SPAN_S = 2;

/** The stash commit a `git stash` made with this move (the latest on top of HEAD written shortly before it), if it was one. */
export async function stashCommitOf(workTree: string, gitDir: string, move: HeadMove): Promise<string | undefined> {
  if (move.subject !== RESET_TO_HEAD || move.when === undefined) return undefined;
  let log: string;
  try {
    log = readFileSync(join(gitDir, 'logs', 'refs', 'stash'), 'utf8');
  } catch {
    return undefined;
  }
  let found: string | undefined;
  for (const line of log.split('\n')) {
    const entry = parseLine(line);
    if (entry?.when === undefined || entry.when > move.when || entry.when < move.when - STASH_SPAN_S) continue;
    if ((await revParse(workTree, `${entry.to}^1`)) === move.to) found = entry.to;
  }
  return found;
}

/**
 * The edits a `git stash` took away, as versions against the history: its commit's tree is the
 * tracked files as they were on disk (and its third parent, with `-u`, the untracked ones). Edits
 * made and stashed within the quiet window were never heard as they stood: they are recorded from
 * there, before the stash's own snapshot (stashPutBack), so what the stash put back is one step after them.
 */
export function keptByStash(store: ProjectStore, stash: string, rules: MoveRules): Promise<MoveChanges> {
  return stashChanges(store, stash, rules, 'taken');
}

/** What a `git stash` wrote: its files back to HEAD's bytes, the untracked ones it took (`-u`) removed. */
export function stashPutBack(store: ProjectStore, stash: string, rules: MoveRules): Promise<MoveChanges> {
  return stashChanges(store, stash, rules, 'putBack');
}

async function stashChanges(store: ProjectStore, stash: string, rules: MoveRules, which: 'taken' | 'putBack'): Promise<MoveChanges> {
  const repo = store.git.repository();
  const head = repo ? await revParse(repo.workTree, `${stash}^1`) : undefined;
  if (!repo || !head) return { versions: [], blobs: [], paths: [] };
  const between = (a: string, b: string) => moveChanges(store, which === 'taken' ? { from: a, to: b, subject: '' } : { from: b, to: a, subject: '' }, rules);
  const tracked = await between(head, stash);
  const untracked = await revParse(repo.workTree, `${stash}^3`);
  if (!untracked) return tracked;
  const more = await between(await emptyTree(repo.workTree), untracked);
  const versions = [...tracked.versions, ...more.versions].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { versions, blobs: [...tracked.blobs, ...more.blobs], paths: [...tracked.paths, ...more.paths] };
}

async function revParse(workTree: string, rev: string): Promise<string | undefined> {
  const { stdout, code } = await runGit(['rev-parse', '--verify', '--quiet', rev], { cwd: workTree, okCodes: [0, 1, 128] });
  return code === 0 ? stdout.toString('utf8').trim() || undefined : undefined;
}

/** The empty tree's id depends on the repository's hash (SHA-1 or SHA-256): git computes it. */
async function emptyTree(workTree: string): Promise<string> {
  const { stdout } = await runGit(['hash-object', '-t', 'tree', '--stdin'], { cwd: workTree, input: Buffer.alloc(0) });
  return stdout.toString('utf8').trim();
}
