import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { statSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { HindsightError } from '../../../shared/errors.js';
import { count } from '../trace.js';
import { ChunkedOutput, type OutputAllocations } from './chunkedOutput.js';
import { GitOutputOverflow } from './gitErrors.js';
import { defaultTransport, openOutputChannel, type OutputTransport } from './outputChannel.js';

// The one place Hindsight runs git: `git` from PATH, arguments as an array (never a shell), a
// working folder, the exit codes that count as success, a timeout and an output allowance. Past
// the allowance or the timeout git is killed with a real signal, together with anything it started
// (hooks, aliases): it runs in its own process group. Git missing is GIT_NOT_FOUND, never a crash.

export const DEFAULT_GIT_TIMEOUT_MS = 30_000;
export const DEFAULT_GIT_ALLOWANCE = 64 * 1024 * 1024;
const STDERR_KEPT = 16 * 1024;

export interface RunGitOptions {
  cwd: string;
  /** Exit codes that are not failures (default [0]); e.g. [0, 1] for "not found" answers. */
  okCodes?: readonly number[];
  timeoutMs?: number;
  /** The most bytes of standard output kept; more kills git with GIT_OUTPUT_OVERFLOW. */
  allowance?: number;
  /** Added to the environment (tests point PATH elsewhere). */
  env?: Record<string, string | undefined>;
  /** How the output reaches the buffer (default: a socket read straight into the chunks). */
  transport?: OutputTransport;
  /** Written to git's standard input, then closed (`cat-file --batch-check` reads its questions there); none: no input. */
  input?: Buffer;
}

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
  allocations: OutputAllocations;
}

export async function runGit(args: readonly string[], options: RunGitOptions): Promise<GitResult> {
  const okCodes = options.okCodes ?? [0];
  const timeoutMs = options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
  const allowance = options.allowance ?? DEFAULT_GIT_ALLOWANCE;
  const shown = ['git', ...args].join(' ');
  if (args.some((arg) => arg.includes('\0'))) {
    throw new HindsightError('BAD_REQUEST', `A git argument contains a NUL byte: ${JSON.stringify(shown)}.`, { args });
  }
  count('git.spawns');
  const out = new ChunkedOutput(allowance);
  let stopped: 'overflow' | 'timeout' | undefined;
  let child: ChildProcessByStdio<Writable | null, Readable | null, Readable> | undefined;
  const channel = await openOutputChannel(out, () => kill('overflow'), options.transport ?? defaultTransport());
  function kill(why: 'overflow' | 'timeout'): void {
    if (stopped) return;
    stopped = why;
    killGroup(child?.pid);
    channel.stop();
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    const clock: { timer?: NodeJS.Timeout } = {};
    const settle = (fail: Error | undefined, result?: GitResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(clock.timer);
      if (fail) reject(fail);
      else resolve(result!);
    };
    try {
      child = spawn('git', args, {
        cwd: options.cwd,
        // No optional locks: a status must never take index.lock from under the user's own git.
        env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...options.env },
        stdio: [options.input ? 'pipe' : 'ignore', channel.stdio, 'pipe'],
        detached: true,
      }) as ChildProcessByStdio<Writable | null, Readable | null, Readable>;
    } catch (error) {
      channel.stop();
      return settle(spawnFailure(error as Error, shown, options.cwd));
    }
    channel.attach(child.stdout);
    const spawned = child;
    if (options.input && spawned.stdin) {
      // git stopping early (killed, or refusing) closes its end: its exit code tells what happened.
      spawned.stdin.on('error', () => undefined);
      spawned.stdin.end(options.input);
    }
    clock.timer = setTimeout(() => kill('timeout'), timeoutMs);
    let stderr = '';
    spawned.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_KEPT) stderr += chunk.toString('utf8', 0, Math.min(chunk.length, STDERR_KEPT - stderr.length));
    });
    // A child that never started reports 'error' and may or may not report 'close'.
    spawned.on('error', (error) => {
      if (spawned.pid === undefined) {
        channel.stop();
        settle(spawnFailure(error, shown, options.cwd));
      }
    });
    spawned.on('close', (code, signal) => {
      // Whatever git started may still hold the output open: it ends when they do, or at the kill.
      void channel.ended.then(() => {
        const stdout = out.join();
        const outcome = closeOutcome({ args, shown, cwd: options.cwd, okCodes, timeoutMs, allowance }, { code, signal, stopped, stdout, stderr });
        if (outcome instanceof Error) settle(outcome);
        else settle(undefined, { ...outcome, allocations: out.allocations });
      });
    });
  });
}

interface RunContext {
  args: readonly string[];
  shown: string;
  cwd: string;
  okCodes: readonly number[];
  timeoutMs: number;
  allowance: number;
}

interface ClosedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stopped: 'overflow' | 'timeout' | undefined;
  stdout: Buffer;
  stderr: string;
}

// What a closed git run amounts to: the error its stop, signal or exit code means, or its output.
function closeOutcome(run: RunContext, closed: ClosedRun): Error | Omit<GitResult, 'allocations'> {
  const { args, shown, cwd, okCodes, timeoutMs, allowance } = run;
  const { code, signal, stopped, stdout, stderr } = closed;
  const details = { args: [...args], cwd, code, signal };
  if (stopped === 'overflow') {
    return new GitOutputOverflow(
      `${shown} printed more than its allowance of ${allowance} bytes, so it was stopped; the first ${stdout.length} bytes are kept.`,
      { ...details, allowance, kept: stdout.length },
      stdout,
    );
  }
  if (stopped === 'timeout') {
    return new HindsightError('GIT_TIMEOUT', `${shown} took longer than ${timeoutMs} ms, so it was stopped.`, { ...details, timeoutMs });
  }
  if (code === null || !okCodes.includes(code)) {
    const why = stderr.trim().split('\n').at(-1) || (signal ? `killed by ${signal}` : `exit code ${code}`);
    return new HindsightError('GIT_FAILED', `${shown} failed in ${cwd}: ${why}`, { ...details, stderr });
  }
  return { code, stdout, stderr };
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function spawnFailure(error: Error, shown: string, cwd: string): HindsightError {
  const errno = (error as NodeJS.ErrnoException).code;
  // spawn reports a missing working folder as ENOENT too: tell the two apart.
  if (errno === 'ENOENT' && !isFolder(cwd)) {
    return new HindsightError('FOLDER_NOT_FOUND', `Cannot run git in ${cwd}: the folder does not exist.`, { cwd }, { cause: error });
  }
  if (errno === 'ENOENT') {
    return new HindsightError(
      'GIT_NOT_FOUND',
      'git was not found on PATH. Install git to see committed versions; the history itself works without it.',
      { cwd },
      { cause: error },
    );
  }
  return new HindsightError('GIT_FAILED', `Could not start ${shown} in ${cwd}: ${error.message}`, { cwd, errno }, { cause: error });
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
