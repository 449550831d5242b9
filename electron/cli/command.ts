import type { Writable } from 'node:stream';
import type { HistoryEngine } from '../history/historyEngine.js';
import type { LockHolder } from '../history/fileLock.js';
import type { Progress } from '../../shared/progress.js';

// What every CLI command is: a name, its flags, a one-line usage, and a function that does it.
// Commands write their JSON or text to `out`; progress and messages go to `err`.

export type FlagSpec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

export interface CommandContext {
  positionals: string[];
  flags: Record<string, string | boolean | string[] | undefined>;
  json: boolean;
  dataDir: string;
  engine: () => HistoryEngine;
  out: Writable;
  err: Writable;
  progress: (progress: Progress) => void;
  /** The folder of the built CLI (out/cli/): things built beside it are found from here. */
  cliDir: string;
  /** Resolves when the command should stop (SIGINT, SIGTERM). */
  signal: AbortSignal;
  /** Says on stderr that another process is writing the same history and this one waits for it. */
  onWait: (holder: LockHolder) => void;
}

export interface Command {
  name: string;
  usage: string;
  summary: string;
  flags?: FlagSpec;
  /** Returns the exit code (0 unless said otherwise). */
  run: (ctx: CommandContext) => Promise<number | void>;
}

export class UsageError extends Error {}

export function writeJson(ctx: CommandContext, value: unknown): void {
  ctx.out.write(`${JSON.stringify(value)}\n`);
}

export function requirePositionals(ctx: CommandContext, names: string[]): string[] {
  if (ctx.positionals.length < names.length) throw new UsageError(`missing ${names.slice(ctx.positionals.length).join(' ')}`);
  if (ctx.positionals.length > names.length) throw new UsageError(`unexpected argument ${ctx.positionals[names.length]}`);
  return ctx.positionals;
}

export function integerFlag(ctx: CommandContext, name: string): number | undefined {
  const raw = ctx.flags[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) throw new UsageError(`--${name} takes a whole number`);
  return Number(raw);
}
