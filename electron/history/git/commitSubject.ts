import { runGit } from './runGit.js';

// A commit's subject line (`git log -1 --format=%s`), as people know the commit: the titles of
// the snapshots git's operations wrote name it. Undefined when git does not hold the commit or
// cannot answer: a title is never worth stopping a recording for.

const MOST_BYTES = 64 * 1024;

export async function commitSubject(workTree: string, commit: string): Promise<string | undefined> {
  if (!/^[0-9a-f]{4,64}$/.test(commit)) return undefined;
  let result;
  try {
    result = await runGit(['log', '-1', '--no-show-signature', '--format=%s%x00', commit, '--'], { cwd: workTree, okCodes: [0, 128], allowance: MOST_BYTES });
  } catch {
    return undefined;
  }
  if (result.code !== 0) return undefined;
  const end = result.stdout.indexOf(0);
  const subject = result.stdout.toString('utf8', 0, end === -1 ? result.stdout.length : end).trim();
  return subject === '' ? undefined : subject;
}
