import { runGit } from './runGit.js';

// Which of some object ids git's object database holds as blobs: `git cat-file --batch-check`,
// the ids on its standard input, one line each; it answers "<oid> blob <size>" or "<oid> missing"
// per line, in order. One git call for any number of ids (fed in batches of a bounded size).

const BATCH = 50_000;

export async function blobsPresent(workTree: string, oids: readonly string[]): Promise<Set<string>> {
  const present = new Set<string>();
  const wanted = [...new Set(oids)].filter((oid) => /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(oid));
  for (let start = 0; start < wanted.length; start += BATCH) {
    const batch = wanted.slice(start, start + BATCH);
    const result = await runGit(['cat-file', '--batch-check=%(objectname) %(objecttype)'], {
      cwd: workTree,
      input: Buffer.from(`${batch.join('\n')}\n`),
      // Each answer is at most an id, a word and a newline.
      allowance: batch.length * 96 + 1024,
    });
    for (const line of result.stdout.toString('utf8').split('\n')) {
      const [oid, type] = line.split(' ');
      if (oid && type === 'blob') present.add(oid);
    }
  }
  return present;
}
