import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ProjectStore } from '../project/projectStore.js';
import { commitSubject } from '../git/commitSubject.js';
import { diffTree } from '../git/diffTree.js';
import { headLogSince, headLogSize, type HeadMove } from '../git/headLog.js';
import { checkpointLabel, gitOperation, harmless, markSeen, seenOffset } from './headCheckpoint.js';
import { commitToName, gitOperationTitle } from './gitOperationTitle.js';
import { moveChanges, type MoveRules } from './moveFromObjects.js';

// One snapshot per move of HEAD. Before a change group (or a rescan) is written, the moves git
// made since the history last looked are read from HEAD's reflog. Each one whose tree is no longer
// on disk (a later checkout, rebase step or reset came before this group was written) is recorded
// on its own, from git's objects (moveFromObjects.ts), titled by its commit; the last one, when
// HEAD is still where it left it and no git command holds the index, is on disk and left to the
// group, which the before-commit hook (headCheckpoint.ts) titles. A move that keeps HEAD where it
// was (a reset --hard to HEAD, a stash) changes no tree git can name: it stays with the group.

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
}

export interface BeforeMove {
  head: string;
  branch: string | null;
  logAt: number;
}

/** Records the moves whose trees left the disk; answers what the group after them holds. */
export async function recordGoneMoves(store: ProjectStore, rules: MoveRules): Promise<GroupMoves> {
  const repo = store.git.repository();
  const latest = store.index.latestSnapshotContext();
  const seen = repo ? seenOffset(store, repo.gitDir) : undefined;
  if (repo) await indexReleased(repo.gitDir);
  const logSize = repo ? headLogSize(repo.gitDir) : undefined;
  if (!repo || !latest || seen === undefined || logSize === undefined || seen >= logSize) return { paths: [], until: logSize };
  const { moves, size: until } = headLogSince(repo.gitDir, seen);
  const risky = moves.filter((move) => !harmless(move));
  if (risky.length === 0) return { paths: [], until };
  const last = risky.at(-1)!;
  const onDisk = (await store.git.head()).head === last.to && !existsSync(join(repo.gitDir, 'index.lock'));
  const gone = (onDisk ? risky.slice(0, -1) : risky).filter((move) => move.from !== move.to);
  if (gone.length > 0) {
    store.index.commitSnapshot({
      snapshot: {
        kind: 'checkpoint',
        label: checkpointLabel(gone, latest.head),
        branch: latest.branch,
        head: latest.head,
        origin: { kind: 'git', gitOperation: gitOperation(gone[0]!), gitWhen: 'before' },
      },
      versions: [],
      blobs: [],
    });
  }
  for (const move of gone) {
    const changes = await moveChanges(store, move, rules);
    if (changes.versions.length > 0) {
      const operation = gitOperation(move);
      const oid = commitToName(operation, [move], move.to);
      const subject = oid ? await commitSubject(repo.workTree, oid) : undefined;
      const branch = branchAfter(move);
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
    }
    // Recorded: a group written after this one starts past it, even after a crash.
    if (move.end !== undefined) markSeen(store, repo.gitDir, move.end);
  }
  if (!onDisk || last.from === last.to) return { paths: [], until };
  const changed = await diffTree(repo.workTree, last.from, last.to, repo.prefix);
  const paths = changed.filter((c) => c.path.startsWith(repo.prefix)).map((c) => c.path.slice(repo.prefix.length));
  const at = moves.indexOf(last);
  const logAt = at > 0 ? (moves[at - 1]!.end ?? seen) : seen;
  return { paths, until, before: { head: last.from, branch: gone.length > 0 ? null : latest.branch, logAt } };
}

/** Whether HEAD's reflog grew past `until`: git moved HEAD while the group's files were being read. */
export function movedSince(store: ProjectStore, until: number | undefined): boolean {
  const repo = store.git.repository();
  if (!repo || until === undefined) return false;
  return (headLogSize(repo.gitDir) ?? 0) > until;
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
