import type { ChildProcess } from 'node:child_process';
import { afterEach } from 'vitest';
import { cliJson, finished, startCli, type CliResult } from './runCli.js';
import { tempDir } from './tempDirs.js';
import { writeTree } from './writeTree.js';

// `hindsight watch --all --json` as a real child process: its JSON lines as they come, a wait for
// the first one that matches (which fails at once, with the process's stderr, if it ends first),
// and a stop by a real signal. Every process started here is killed after its test.

export interface Line {
  projectId?: string;
  root?: string;
  state?: string;
  detail?: string | null;
  snapshotId?: number;
  changed?: string[];
  label?: string | null;
  watching?: boolean;
  projects?: number;
}

export interface Running {
  child: ChildProcess;
  lines: Line[];
  done: Promise<CliResult>;
  /** Resolves with the first line (counting from `from`) that matches. */
  waitFor(match: (line: Line) => boolean, from?: number): Promise<Line>;
}

/** Every child started by a test of the file, killed after it. */
export const running: ChildProcess[] = [];

afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

export function watchAll(data: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Running {
  const child = startCli(['watch', '--all', '--data-dir', data, '--json', ...args], env);
  running.push(child);
  const done = finished(child);
  const lines: Line[] = [];
  const waiters = new Set<() => void>();
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    partial += chunk.toString();
    const complete = partial.split('\n');
    partial = complete.pop()!;
    for (const text of complete) if (text) lines.push(JSON.parse(text) as Line);
    for (const wake of [...waiters]) wake();
  });
  const waitFor = (match: (line: Line) => boolean, from = 0) =>
    new Promise<Line>((resolve, reject) => {
      const look = () => {
        const found = lines.slice(from).find(match);
        if (found) {
          waiters.delete(look);
          resolve(found);
        }
      };
      waiters.add(look);
      void done.then((result) => waiters.has(look) && reject(new Error(`watch --all ended (${result.code}): ${result.stderr}`)));
      look();
    });
  return { child, lines, done, waitFor };
}

export const started = (line: Line) => line.watching === true;
export const groupOf = (root: string, path: string) => (line: Line) => line.root === root && line.changed?.includes(path) === true;
export const stateOf = (root: string, state: string) => (line: Line) => line.root === root && line.state === state;

export async function stop(watch: Running, signal: NodeJS.Signals = 'SIGTERM'): Promise<CliResult> {
  watch.child.kill(signal);
  return watch.done;
}

/** A project known to the data folder: a temp folder holding `files`, opened by the CLI. */
export async function project(data: string, files: Record<string, string>): Promise<string> {
  const root = tempDir();
  writeTree(root, files);
  await cliJson(['open', root, '--data-dir', data]);
  return root;
}
