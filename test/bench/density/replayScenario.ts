import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { diskUsage } from './diskUsage.js';
import { checkOut, filesInCommit, firstParentCommits, repositoryName } from './gitReplay.js';
import { recordStates, type ToolRecord } from './recordStates.js';
import type { StoreTool } from './storeTools.js';

// Scenario `replay`: a real project's last N first-parent commits, oldest first, each checked out
// into the working folder and recorded by every store, as a history of a developer's folder.

export interface ReplayResult {
  scenario: 'replay';
  repository: string;
  path: string;
  commits: number;
  first: string;
  last: string;
  /** The last state's folder: its files and du's sizes. */
  lastState: { files: number; apparentBytes: number; allocatedBytes: number };
  tools: ToolRecord[];
}

export async function replayScenario(
  repo: string,
  count: number,
  rev: string,
  scratch: string,
  tools: readonly StoreTool[],
  note: (line: string) => void,
): Promise<ReplayResult> {
  const commits = firstParentCommits(repo, count, rev);
  if (commits.length === 0) throw new Error(`${repo} has no commits at ${rev}.`);
  const work = join(scratch, 'work');
  mkdirSync(work, { recursive: true });
  const index = join(scratch, 'replay-index');
  const records = await recordStates(
    tools,
    work,
    {
      count: commits.length,
      prepare: (i) => {
        checkOut(repo, index, work, commits[i]!.hash);
        return `c${String(i).padStart(4, '0')}-${commits[i]!.hash.slice(0, 12)}`;
      },
    },
    (i, label) => {
      if (i % 10 === 0 || i === commits.length - 1) note(`replay: state ${i + 1}/${commits.length} ${label}`);
    },
  );
  const usage = diskUsage(work);
  return {
    scenario: 'replay',
    repository: repositoryName(repo),
    path: repo,
    commits: commits.length,
    first: commits[0]!.hash,
    last: commits.at(-1)!.hash,
    lastState: { files: filesInCommit(repo, commits.at(-1)!.hash), apparentBytes: usage.apparentBytes, allocatedBytes: usage.allocatedBytes },
    tools: records,
  };
}
