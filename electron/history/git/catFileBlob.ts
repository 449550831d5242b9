import { firstLine } from './nulRecords.js';
import { runGit } from './runGit.js';

// The bytes of one blob, `git cat-file blob <oid>`, within an allowance (past it: git is killed
// and GIT_OUTPUT_OVERFLOW carries the first bytes), and its size alone, `git cat-file -s <oid>`.

export async function catFileBlob(workTree: string, oid: string, allowance: number): Promise<Buffer> {
  return (await runGit(['cat-file', 'blob', oid], { cwd: workTree, allowance })).stdout;
}

export async function catFileSize(workTree: string, oid: string): Promise<number> {
  return Number(firstLine((await runGit(['cat-file', '-s', oid], { cwd: workTree, allowance: 64 })).stdout));
}
