import { firstLine } from './nulRecords.js';
import { runGit } from './runGit.js';

// The branch HEAD is on (short name), or undefined when HEAD is detached.

export async function currentBranch(cwd: string): Promise<string | undefined> {
  const result = await runGit(['symbolic-ref', '--quiet', '--short', 'HEAD'], { cwd, okCodes: [0, 1], allowance: 4096 });
  const branch = firstLine(result.stdout);
  return result.code === 0 && branch !== '' ? branch : undefined;
}
