import { nulRecords } from './nulRecords.js';
import { runGit } from './runGit.js';
import { LITERAL_PATHS } from './treeEntry.js';

// The git objects ids of file contents that are in a commit: the blobs HEAD's tree holds for some
// paths (`git ls-tree -r -z --full-tree HEAD -- PATHS`), and every blob a commit since a time
// wrote on any branch (`git log --all --raw --no-abbrev -z --since`). A prune keeps young
// versions whose bytes are in neither (retention/uncommitted.ts). Two git calls in all.

/** Past this many paths the calls read every path instead (the command line has a limit). */
const MAX_PATHSPECS = 500;

export async function committedBlobs(workTree: string, sinceMs: number, paths: readonly string[]): Promise<Set<string>> {
  const pathspec = paths.length > 0 && paths.length <= MAX_PATHSPECS ? ['--', ...paths] : [];
  const oids = new Set<string>();
  const head = await runGit(['ls-tree', '-r', '-z', '--full-tree', 'HEAD', ...pathspec], { cwd: workTree, env: LITERAL_PATHS, okCodes: [0, 128] });
  if (head.code === 0) {
    for (const record of nulRecords(head.stdout)) {
      const [, type, oid] = record.slice(0, record.indexOf('\t')).split(' ');
      if (type === 'blob' && oid) oids.add(oid);
    }
  }
  const since = `--since=@${Math.floor(sinceMs / 1000)}`;
  const log = await runGit(['log', '--all', '--no-renames', '--raw', '--no-abbrev', '-z', '--format=', since, ...pathspec], {
    cwd: workTree,
    env: LITERAL_PATHS,
    okCodes: [0, 128],
  });
  if (log.code === 0) {
    // Raw records: ":<old mode> <new mode> <old oid> <new oid> <status>" NUL "<path>" NUL.
    for (const record of nulRecords(log.stdout)) {
      if (!record.startsWith(':')) continue;
      const oid = record.split(' ')[3];
      if (oid && !/^0+$/.test(oid)) oids.add(oid);
    }
  }
  return oids;
}
