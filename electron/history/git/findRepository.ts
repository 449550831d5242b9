import { readFileSync, statSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

// Finds the git repository a folder belongs to the way git does, without starting git: from the
// folder upwards, the first `.git` folder (or `.git` file naming one, as worktrees and submodules
// have), stopping at a file-system boundary as git does by default. Synchronous and a few stats,
// so a store can know at open whether it is in a repository.

export interface GitRepository {
  /** The top folder of the working tree. */
  workTree: string;
  /** This working tree's git folder (HEAD lives here). */
  gitDir: string;
  /** The folder shared by every worktree (refs, packed-refs, objects). */
  commonDir: string;
  /** The project folder's path inside the working tree, '' or ending in '/'. */
  prefix: string;
}

export function findRepository(folder: string): GitRepository | undefined {
  const start = resolve(folder);
  const device = statOrUndefined(start)?.dev;
  for (let dir = start; ; dir = dirname(dir)) {
    const here = statOrUndefined(dir);
    if (!here || here.dev !== device) return undefined;
    const gitDir = gitDirAt(join(dir, '.git'));
    if (gitDir) {
      const rel = relative(dir, start);
      return { workTree: dir, gitDir, commonDir: commonDirOf(gitDir), prefix: rel === '' ? '' : `${rel.split(sep).join('/')}/` };
    }
    if (dirname(dir) === dir) return undefined;
  }
}

function gitDirAt(dotGit: string): string | undefined {
  const st = statOrUndefined(dotGit);
  if (!st) return undefined;
  if (st.isDirectory()) return looksLikeGitDir(dotGit) ? dotGit : undefined;
  if (!st.isFile()) return undefined;
  const match = /^gitdir: (.+?)\r?\n?$/.exec(readOrEmpty(dotGit));
  if (!match) return undefined;
  const target = isAbsolute(match[1]!) ? match[1]! : resolve(dirname(dotGit), match[1]!);
  return looksLikeGitDir(target) ? target : undefined;
}

function looksLikeGitDir(dir: string): boolean {
  return statOrUndefined(join(dir, 'HEAD'))?.isFile() === true;
}

function commonDirOf(gitDir: string): string {
  const named = readOrEmpty(join(gitDir, 'commondir')).trim();
  if (named === '') return gitDir;
  return isAbsolute(named) ? named : resolve(gitDir, named);
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
