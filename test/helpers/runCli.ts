import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Runs the built `hindsight` command as a real child process.

export const CLI = fileURLToPath(new URL('../../out/cli/hindsight.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}

export interface CliOptions {
  /** The folder the command runs in (default: this process's). */
  cwd?: string;
}

export function startCli(args: string[], env: NodeJS.ProcessEnv = {}, options: CliOptions = {}): ChildProcess {
  return spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, options: CliOptions = {}): Promise<CliResult> {
  return finished(startCli(args, env, options));
}

/**
 * The child's exit and output. Call it as soon as the child is spawned: once the child has exited,
 * Node drains and discards output nobody listens to and 'close' passes, so a late call would wait
 * forever; it throws instead.
 */
export function finished(child: ChildProcess): Promise<CliResult> {
  if (child.exitCode !== null || child.signalCode !== null) {
    throw new Error(`finished() called after process ${child.pid} exited: its output is lost; call it right after spawn`);
  }
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

export async function cliJson<T>(args: string[], env: NodeJS.ProcessEnv = {}, options: CliOptions = {}): Promise<T> {
  const result = await runCli([...args, '--json'], env, options);
  if (result.code !== 0) throw new Error(`hindsight ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout.toString('utf8')) as T;
}

/** stderr without `log PATH`'s note on version numbers (which a prune renumbers), the one line a listing adds there. */
export function withoutVersionNote(stderr: string): string {
  return stderr.replace(/^VERSION numbers the versions kept now .*\n$/, '');
}
