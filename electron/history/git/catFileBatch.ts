import { HindsightError } from '../../../shared/errors.js';
import { runGit } from './runGit.js';

// The bytes of many blobs in one git call: `git cat-file --batch`, the ids on its standard input,
// one a line; git answers "<oid> <type> <size>" LF, the bytes, LF, per id in order ("<oid>
// missing" LF for one it does not hold). Asked a thousand ids at a time, each answer within an
// allowance (past it git is killed: GIT_OUTPUT_OVERFLOW).

const MOST_BYTES = 256 * 1024 * 1024;
const BATCH = 1000;

export async function catFileBatch(workTree: string, oids: readonly string[]): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>();
  const wanted = [...new Set(oids)];
  for (let start = 0; start < wanted.length; start += BATCH) {
    const batch = wanted.slice(start, start + BATCH);
    const { stdout } = await runGit(['cat-file', '--batch'], { cwd: workTree, input: Buffer.from(`${batch.join('\n')}\n`), allowance: MOST_BYTES });
    parseBatch(stdout, blobs);
  }
  return blobs;
}

function parseBatch(output: Buffer, into: Map<string, Buffer>): void {
  let at = 0;
  while (at < output.length) {
    const lineEnd = output.indexOf(0x0a, at);
    if (lineEnd === -1) break;
    const [oid, type, size] = output.toString('latin1', at, lineEnd).split(' ');
    at = lineEnd + 1;
    if (type === 'missing' || size === undefined) continue;
    const length = Number(size);
    if (at + length > output.length) throw new HindsightError('GIT_FAILED', `git cat-file --batch answered ${oid} cut short.`, { oid });
    if (type === 'blob') into.set(oid!, output.subarray(at, at + length));
    at += length + 1;
  }
}
