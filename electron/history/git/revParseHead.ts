import { firstLine } from './nulRecords.js';
import { runGit } from './runGit.js';

// The commit HEAD points at, or undefined on a branch with no commits yet.

export async function revParseHead(cwd: string): Promise<string | undefined> {
  const result = await runGit(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd, okCodes: [0, 1], allowance: 4096 });
  const sha = firstLine(result.stdout);
  return result.code === 0 && sha !== '' ? sha : undefined;
}
