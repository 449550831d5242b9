import { appendFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { HindsightError } from '../../shared/errors.js';
import { resolveDataDir } from '../history/dataDir.js';
import type { HistoryEngine } from '../history/historyEngine.js';
import { setCopyWorkerScript, sharedCopyPool } from '../history/store/copyPool.js';
import { traceSnapshot } from '../history/trace.js';
import { watchClosedOutput } from './closedOutput.js';
import { UsageError, type Command, type CommandContext } from './command.js';
import { COMMANDS } from './commandRegistry.js';
import { progressBar } from './progressBar.js';

// `hindsight <command> [--data-dir DIR] [--json]`: the engine from a terminal. Exit 0 on success,
// 1 on a failure (one clear line on stderr), 2 on bad usage.

const GLOBAL_FLAGS = {
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

async function usage(): Promise<string> {
  const commands = await Promise.all(COMMANDS.map((c) => c.load()));
  const lines = commands.map((c) => `  hindsight ${c.usage.padEnd(58)} ${c.summary}`);
  return `Usage: hindsight <command> [--data-dir DIR] [--json]\n\n${lines.join('\n')}\n`;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(await usage());
    return name ? 0 : 2;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    process.stderr.write(`hindsight: unknown command ${JSON.stringify(name)}\n${await usage()}`);
    return 2;
  }
  const [command, { HistoryEngine }] = await Promise.all([entry.load(), import('../history/historyEngine.js')]);
  let engine: HistoryEngine | undefined;
  const controller = new AbortController();
  const stop = () => controller.abort(new HindsightError('CANCELLED', 'Cancelled.'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const output = watchClosedOutput(process.stdout, process.stderr, () => controller.abort(new HindsightError('CANCELLED', 'The output was closed.')));
  try {
    const ctx = context(command, rest, controller.signal, () => (engine ??= new HistoryEngine(ctx.dataDir)));
    if (ctx.flags.help) {
      process.stdout.write(`Usage: hindsight ${command.usage}\n${command.summary}\n`);
      return 0;
    }
    return (await command.run(ctx)) ?? 0;
  } catch (error) {
    // Stopped because the reader went away (or a write failed for it): nothing to report.
    if (output.closed || isClosedPipe(error)) return 0;
    if (error instanceof UsageError) {
      process.stderr.write(`hindsight ${name}: ${error.message}\nUsage: hindsight ${command.usage}\n`);
      return 2;
    }
    process.stderr.write(`hindsight ${name}: ${messageOf(error)}\n`);
    return 1;
  } finally {
    engine?.close();
    await sharedCopyPool().close();
  }
}

function context(command: Command, args: string[], signal: AbortSignal, engine: () => HistoryEngine): CommandContext {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...GLOBAL_FLAGS, ...(command.flags ?? {}) }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const flags = parsed.values as CommandContext['flags'];
  return {
    positionals: parsed.positionals,
    flags,
    json: flags.json === true,
    dataDir: resolveDataDir(typeof flags['data-dir'] === 'string' ? flags['data-dir'] : undefined),
    engine,
    out: process.stdout,
    err: process.stderr,
    progress: progressBar(process.stderr),
    cliDir: fileURLToPath(new URL('.', import.meta.url)),
    signal,
    onWait: (holder) => {
      const who = holder.pid === null ? 'another process' : `process ${holder.pid}${holder.host && holder.host !== hostname() ? ` on ${holder.host}` : ''}`;
      process.stderr.write(`hindsight ${command.name}: waiting for ${who}, which is writing this history (Ctrl-C to stop waiting)\n`);
    },
  };
}

function isClosedPipe(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

function messageOf(error: unknown): string {
  if (error instanceof HindsightError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

function writeTrace(): void {
  const file = process.env.HINDSIGHT_TRACE;
  if (file) appendFileSync(file, `${JSON.stringify(traceSnapshot())}\n`);
}

setCopyWorkerScript(new URL('./copyWorker.js', import.meta.url));
const code = await main(process.argv.slice(2));
writeTrace();
process.exitCode = code;
