import { execFileSync } from 'node:child_process';

// A real project's history as a sequence of folder states: the last N first-parent commits of a
// git repository (bare or not), oldest first, each checked out in turn into one working folder.
// The checkout goes through an index of the bench's own (read-tree --reset -u): files the next
// commit changes are rewritten, files it removes are deleted, and untouched files are left as they
// are, as a `git checkout` or a developer's edits leave them.

export interface ReplayCommit {
  hash: string;
  subject: string;
}

export function firstParentCommits(repo: string, count: number, rev = 'HEAD'): ReplayCommit[] {
  const out = execFileSync('git', ['log', '--first-parent', `--max-count=${count}`, '--format=%H %s', rev], {
    env: gitEnv(repo),
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => ({ hash: line.slice(0, 40), subject: line.slice(41) }))
    .reverse();
}

/** Makes `work` hold exactly the tree of `commit` (index: the bench's own index file for that folder). */
export function checkOut(repo: string, index: string, work: string, commit: string): void {
  execFileSync('git', ['read-tree', '--reset', '-u', commit], {
    env: { ...gitEnv(repo), GIT_INDEX_FILE: index, GIT_WORK_TREE: work },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/** How many files (blobs and links) the commit's tree holds. */
export function filesInCommit(repo: string, commit: string): number {
  const out = execFileSync('git', ['ls-tree', '-r', '-z', '--name-only', commit], { env: gitEnv(repo), encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  return out.split('\0').filter(Boolean).length;
}

/** Where the repository came from (its origin's URL), or its path when it has none. */
export function repositoryName(repo: string): string {
  try {
    return execFileSync('git', ['config', '--get', 'remote.origin.url'], { env: gitEnv(repo), encoding: 'utf8' }).trim() || repo;
  } catch {
    return repo;
  }
}

export function isGitRepository(repo: string): boolean {
  try {
    execFileSync('git', ['rev-parse', '--git-dir'], { env: gitEnv(repo), stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// GIT_DIR names the repository whatever the current folder; a normal checkout's is its .git.
function gitEnv(repo: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_DIR: gitDirOf(repo) };
  delete env.GIT_INDEX_FILE;
  delete env.GIT_WORK_TREE;
  return env;
}

function gitDirOf(repo: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--absolute-git-dir'], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return repo;
  }
}
