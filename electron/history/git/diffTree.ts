import { runGit } from './runGit.js';
import { LITERAL_PATHS } from './treeEntry.js';

// What one commit changed against another: `git diff-tree -r -z --no-renames <from> <to>`, in
// git's raw form, ":<old mode> <new mode> <old oid> <new oid> <status>" NUL "<path>" NUL. Renames
// are not looked for (a move is a deletion and an addition), so every path git's checkout wrote or
// removed is listed once, with the mode and object it holds at `to` (the null id for a deletion).

export interface TreeChange {
  /** The path relative to the top of the working tree. */
  path: string;
  /** The mode and object at `to`; undefined when `to` holds nothing there. */
  gitMode: string | undefined;
  oid: string | undefined;
}

const MOST_BYTES = 256 * 1024 * 1024;

export async function diffTree(workTree: string, from: string, to: string, prefix = ''): Promise<TreeChange[]> {
  const args = ['diff-tree', '-r', '-z', '--no-renames', '--no-commit-id', '--no-ext-diff', from, to];
  if (prefix !== '') args.push('--', prefix);
  const { stdout } = await runGit(args, { cwd: workTree, env: LITERAL_PATHS, allowance: MOST_BYTES });
  return parseRaw(stdout);
}

/** The raw records: a header (":" and five fields) and a path, each ended by a NUL. */
export function parseRaw(output: Buffer): TreeChange[] {
  const changes: TreeChange[] = [];
  let start = 0;
  while (start < output.length) {
    const headerEnd = output.indexOf(0, start);
    const pathEnd = headerEnd === -1 ? -1 : output.indexOf(0, headerEnd + 1);
    if (pathEnd === -1) break; // cut short: never half a record
    const [, newMode, , newOid, status] = output.toString('latin1', start + 1, headerEnd).split(' ');
    const path = output.toString('utf8', headerEnd + 1, pathEnd);
    const deleted = status === 'D' || newMode === '000000';
    changes.push({ path, gitMode: deleted ? undefined : newMode, oid: deleted ? undefined : newOid });
    start = pathEnd + 1;
  }
  return changes;
}
