import { nulRecords } from './nulRecords.js';
import { runGit } from './runGit.js';
import { LITERAL_PATHS, type TreeEntry } from './treeEntry.js';

// The staged (index) entry of one path: `git ls-files -z --stage -- <path>`, each record
// "<mode> SP <oid> SP <stage> TAB <path>". During a conflict there is no stage 0; "ours" (stage 2)
// stands for what the index holds.

export async function lsFilesStage(workTree: string, path: string): Promise<TreeEntry | undefined> {
  const result = await runGit(['ls-files', '-z', '--stage', '--', path], { cwd: workTree, env: LITERAL_PATHS, allowance: 1024 * 1024 });
  const stages = new Map<string, TreeEntry>();
  for (const record of nulRecords(result.stdout)) {
    const tab = record.indexOf('\t');
    const [gitMode, oid, stage] = record.slice(0, tab).split(' ');
    if (tab !== -1 && record.slice(tab + 1) === path && gitMode && oid && stage) stages.set(stage, { gitMode, oid, path });
  }
  return stages.get('0') ?? stages.get('2');
}
