import type { Writable } from 'node:stream';
import type { HistoryEngine } from '../history/historyEngine.js';
import type { LockHolder } from '../history/fileLock.js';
import { resolveFolder } from '../history/project/projectStore.js';
import { projectPathOf } from '../history/project/userPath.js';
import type { Progress } from '../../shared/progress.js';
import { parseDisplayPath } from '../../shared/fileNameBytes.js';

// What every CLI command is: a name, its flags, a one-line usage, and a function that does it.
// Commands write their JSON or text to `out`; progress and messages go to `err`. With --json a
// command prints exactly what the engine answered, which is what the viewer receives for the same
// question (the contract's types): never a reshaped copy.

export type FlagSpec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

export interface CommandContext {
  positionals: string[];
  flags: Record<string, string | boolean | string[] | undefined>;
  json: boolean;
  dataDir: string;
  /** The engine, made on first use; its progress events drive the progress bar. */
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

/** The engine and the projectId of a folder named on the command line. */
export function projectOf(ctx: CommandContext, folder: string): { engine: HistoryEngine; projectId: string } {
  const engine = ctx.engine();
  return { engine, projectId: engine.locate(folder) };
}

export function requirePositionals(ctx: CommandContext, names: string[]): string[] {
  if (ctx.positionals.length < names.length) throw new UsageError(`missing ${names.slice(ctx.positionals.length).join(' ')}`);
  if (ctx.positionals.length > names.length) throw new UsageError(`unexpected argument ${ctx.positionals[names.length]}`);
  ctx.positionals.forEach((value, i) => requireNonEmpty(value, names[i]!));
  return ctx.positionals;
}

/** An empty argument ('') is a slip of the shell, never "the current folder": bad usage. */
export function requireNonEmpty(value: string | undefined, name: string): void {
  if (value === '') throw new UsageError(`${name} is empty`);
}

/**
 * A file path as typed (relative to the current folder inside the project, or absolute) as a
 * project path; a byte that is not UTF-8 is typed as the listings show it, \xNN.
 */
export function projectPathArg(folder: string, path: string): string {
  return projectPathOf(resolveFolder(folder), parseDisplayPath(path));
}

/** A folder (or file) of the project as typed; the project folder itself is ''. */
export function projectPrefixArg(folder: string, path: string): string {
  return projectPathOf(resolveFolder(folder), parseDisplayPath(path), { allowRoot: true });
}

export function integerFlag(ctx: CommandContext, name: string): number | undefined {
  const raw = ctx.flags[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) throw new UsageError(`--${name} takes a whole number`);
  return Number(raw);
}

/** A count that must be 1 or more (a limit of 0 would answer nothing, never what was meant). */
export function positiveIntegerFlag(ctx: CommandContext, name: string): number | undefined {
  const value = integerFlag(ctx, name);
  if (value === 0 || (value !== undefined && !Number.isSafeInteger(value))) throw new UsageError(`--${name} takes a whole number of 1 or more`);
  return value;
}
