import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { measureProcess, type ProcessMeasure } from '../measureProcess.js';
import { hindsightBreakdown, type StoreBreakdown } from './hindsightBreakdown.js';

// The stores bench:density fills with the same folder states: Hindsight through its CLI, restic,
// borg (zstd level 3, and its default lz4) and a git repository. Each keeps its store in its own
// folder under the scratch folder, so its size is that folder's; caches a tool keeps beside its
// store (restic's, borg's) are in the scratch folder too but not counted, as they can be dropped.

export interface StoreTool {
  name: string;
  /** The program that must be on PATH; a tool without it is skipped and named. */
  needs: string;
  /** The folder that is the store: its size is the figure. */
  store: string;
  /** Makes the empty store (before the first state). */
  init: () => void;
  /** Records the folder as it is now; `first` is the first state. */
  record: (work: string, label: string, first: boolean) => Promise<ProcessMeasure>;
  /** Where the store's bytes are, for a store whose layout the bench knows. */
  breakdown?: () => StoreBreakdown;
  /** What the tool does once all states are in (git packs its objects). */
  finish?: () => Promise<ProcessMeasure>;
}

export const TOOL_NAMES = ['hindsight', 'restic', 'borg-zstd3', 'borg-lz4', 'git'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export function storeTool(name: ToolName, scratch: string, cli: string): StoreTool {
  switch (name) {
    case 'hindsight':
      return hindsight(join(scratch, 'hindsight-data'), cli);
    case 'restic':
      return restic(join(scratch, 'restic'), join(scratch, 'restic-cache'));
    case 'borg-zstd3':
      return borg('borg-zstd3', join(scratch, 'borg-zstd3'), join(scratch, 'borg-home'), 'zstd,3');
    case 'borg-lz4':
      return borg('borg-lz4', join(scratch, 'borg-lz4'), join(scratch, 'borg-home'), 'lz4');
    case 'git':
      return git(join(scratch, 'git.git'));
  }
}

/** The first state is the first copy (`open`), each later one a `checkpoint` (a rescan, then a snapshot). */
function hindsight(dataDir: string, cli: string): StoreTool {
  return {
    name: 'hindsight',
    needs: 'node',
    store: dataDir,
    init: () => mkdirSync(dataDir, { recursive: true }),
    breakdown: () => hindsightBreakdown(dataDir),
    record: (work, label, first) =>
      succeeded(
        'hindsight',
        measureProcess(process.execPath, first ? [cli, 'open', work, '--yes', '--data-dir', dataDir] : [cli, 'checkpoint', work, label, '--data-dir', dataDir]),
      ),
  };
}

/** restic's default compression (auto) in a repository of its default version. */
function restic(repo: string, cache: string): StoreTool {
  const env = { ...process.env, RESTIC_PASSWORD: 'hindsight-bench', RESTIC_CACHE_DIR: cache };
  return {
    name: 'restic',
    needs: 'restic',
    store: repo,
    init: () => execFileSync('restic', ['init', '--quiet', '--repo', repo], { env, stdio: 'ignore' }),
    record: (work, label) =>
      succeeded('restic', measureProcess('restic', ['backup', '--quiet', '--repo', repo, '--host', 'bench', '--tag', label, '.'], { cwd: work, env })),
  };
}

/** Unencrypted, so the figure is the data's (borg's encryption adds a few bytes per chunk). */
function borg(name: string, repo: string, home: string, compression: string): StoreTool {
  const env = { ...process.env, BORG_BASE_DIR: home, BORG_UNKNOWN_UNENCRYPTED_REPO_ACCESS_IS_OK: 'yes', BORG_RELOCATED_REPO_ACCESS_IS_OK: 'yes' };
  return {
    name,
    needs: 'borg',
    store: repo,
    init: () => execFileSync('borg', ['init', '--encryption=none', repo], { env, stdio: 'ignore' }),
    record: (work, label) => succeeded(name, measureProcess('borg', ['create', '--compression', compression, `${repo}::${label}`, '.'], { cwd: work, env })),
  };
}

/** A commit of each state (loose objects as they come), then one `git repack -adf` at the end. */
function git(gitDir: string): StoreTool {
  const env = (work: string) => ({
    ...process.env,
    GIT_DIR: gitDir,
    GIT_WORK_TREE: work,
    GIT_INDEX_FILE: join(gitDir, 'index'),
    GIT_AUTHOR_NAME: 'bench',
    GIT_AUTHOR_EMAIL: 'bench@example.invalid',
    GIT_COMMITTER_NAME: 'bench',
    GIT_COMMITTER_EMAIL: 'bench@example.invalid',
  });
  return {
    name: 'git',
    needs: 'git',
    store: gitDir,
    init: () => {
      execFileSync('git', ['init', '--quiet', '--bare', gitDir], { stdio: 'ignore' });
      // No automatic gc between commits: the store is packed once, at the end.
      execFileSync('git', ['config', 'gc.auto', '0'], { env: { ...process.env, GIT_DIR: gitDir } });
    },
    record: (work, label) =>
      succeeded(
        'git',
        measureProcess('sh', ['-c', 'git add -A && git commit --quiet --allow-empty --no-verify -m "$0"', label], { cwd: work, env: env(work) }),
      ),
    finish: () => succeeded('git', measureProcess('git', ['repack', '-adf', '-q'], { env: { ...process.env, GIT_DIR: gitDir } })),
  };
}

async function succeeded(name: string, run: Promise<ProcessMeasure>): Promise<ProcessMeasure> {
  const done = await run;
  if (done.code !== 0) throw new Error(`${name} failed (exit ${done.code}): ${done.stderr.trim().slice(-2000)}`);
  return done;
}
