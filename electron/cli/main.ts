import { appendFileSync } from 'node:fs';
import { constants as osConstants, hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { HindsightError, isHindsightError } from '../../shared/errors.js';
import { resolveDataDir } from '../history/dataDir.js';
import type { HistoryEngine } from '../history/historyEngine.js';
import { sharedCopyPool } from '../history/store/copyPool.js';
import { setWorkerScriptsDir } from '../history/workerScripts.js';
import { traceSnapshot } from '../history/trace.js';
import { watchClosedOutput } from './closedOutput.js';
import { UsageError, type Command, type CommandContext } from './command.js';
import { COMMANDS } from './commandRegistry.js';
import { commandFirst } from './commandLine.js';
import { progressBar } from './progressBar.js';
import { visibleLines } from '../../shared/fileNameBytes.js';

// `hindsight [--data-dir DIR] [--json] <command> ...`: the engine from a terminal (the global flags
// anywhere on the line). Exit 0 on success,
// 1 on a failure (one clear line on stderr), 2 on bad usage.

const GLOBAL_FLAGS = {
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

async function usage(): Promise<string> {
  const commands = await Promise.all(COMMANDS.map((c) => c.load()));
  const lines = commands.map((c) => `  hindsight ${c.usage.padEnd(58)} ${c.summary}`);
  return `Usage: hindsight <command> [--data-dir DIR] [--json] (both anywhere on the line)\n\n${lines.join('\n')}\n`;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = commandFirst(argv);
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
  const stopped = stopOnSignals(controller);
  const output = watchClosedOutput(process.stdout, process.stderr, () => controller.abort(new HindsightError('CANCELLED', 'The output was closed.')));
  try {
    const ctx = context(command, rest, controller.signal, () => {
      if (engine) return engine;
      engine = new HistoryEngine(ctx.dataDir);
      engine.events.on((event) => {
        if (event.event === 'progress') ctx.progress(event.payload);
      });
      return engine;
    });
    if (ctx.flags.help) {
      process.stdout.write(`Usage: hindsight ${command.usage}\n${command.summary}\n`);
      return 0;
    }
    return (await command.run(ctx)) ?? 0;
  } catch (error) {
    // Stopped because the reader went away (or a write failed for it): nothing to report.
    if (output.closed || isClosedPipe(error)) return 0;
    // Cancelled by a signal: the work stopped before anything half done was recorded.
    if (stopped.signal && controller.signal.aborted) {
      // A cancelled write that kept something says what (a restore); any other recorded nothing.
      const said =
        isHindsightError(error) && error.code === 'CANCELLED' && error.message !== 'Cancelled.' ? error.message : 'nothing of this run was recorded.';
      process.stderr.write(`hindsight ${name}: stopped by ${stopped.signal}; ${visibleLines(said)}\n`);
      return signalExitCode(stopped.signal);
    }
    if (error instanceof UsageError) {
      process.stderr.write(`hindsight ${name}: ${messageOf(error)}\nUsage: hindsight ${command.usage}\n`);
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

/**
 * SIGINT and SIGTERM cancel the running command: its signal aborts, the work stops at its next
 * file (or piece of a large file), and the command ends with the signal's conventional exit code.
 * Commands that run until stopped (watch, serve) take the signal as their normal end. A second
 * signal, or work still running a few seconds later (a call stuck in the kernel), ends the
 * process at once: every write Hindsight records is one SQLite transaction, so nothing half
 * written survives that either.
 */
function stopOnSignals(controller: AbortController): { signal: NodeJS.Signals | undefined } {
  const state: { signal: NodeJS.Signals | undefined } = { signal: undefined };
  const onSignal = (signal: NodeJS.Signals) => {
    if (state.signal) process.exit(signalExitCode(state.signal));
    state.signal = signal;
    controller.abort(new HindsightError('CANCELLED', 'Cancelled.'));
    setTimeout(() => {
      process.stderr.write(`hindsight: did not stop within ${FORCED_EXIT_MS / 1000} s of ${signal}; exiting now.\n`);
      process.exit(signalExitCode(signal));
    }, FORCED_EXIT_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return state;
}

const FORCED_EXIT_MS = 3000;

/** 128 + the signal's number, as shells report a command a signal ended (130, 143). */
function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (osConstants.signals[signal] ?? 0);
}

function isClosedPipe(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

function messageOf(error: unknown): string {
  // A message may name a path or a label from a bundle or a remote: its control characters and
  // bytes that are not UTF-8 shown as \xNN, as every listing does.
  if (error instanceof Error) return visibleLines(error.message);
  return visibleLines(String(error));
}

function writeTrace(): void {
  const file = process.env.HINDSIGHT_TRACE;
  if (file) appendFileSync(file, `${JSON.stringify(traceSnapshot())}\n`);
}

// The workers (copy, prune planner) are built beside this file (scripts/build-cli.mjs).
setWorkerScriptsDir(new URL('./', import.meta.url));
const code = await main(process.argv.slice(2));
writeTrace();
process.exitCode = code;
