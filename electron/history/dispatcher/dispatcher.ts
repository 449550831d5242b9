import { CALLS, isCallName, type HindsightEvent } from '../../../shared/contract.js';
import type { RecordingSwitch } from '../recorder/recordingSwitch.js';
import { HindsightError } from '../../../shared/errors.js';
import type { Result } from '../../../shared/contract/result.js';
import { callMessageSchema, type ResultMessage } from '../../../shared/contract/wire.js';
import { errorData } from '../errorData.js';
import type { HistoryEngine } from '../historyEngine.js';
import { badRequest } from './badRequest.js';
import { Operations } from './operations.js';
import { ROUTES, type CredentialsSource, type RouteContext } from './routes.js';

// The history process's one door, whatever the transport: `handle` takes any message, checks it
// against the contract, runs the call and answers with a Result; it never throws and never
// rejects. The engine's events are forwarded unchanged to every subscriber (each connected window
// or browser tab); the dispatcher adds none of its own.

export interface Dispatcher {
  /**
   * `gone` aborts when the caller went away (its page, socket or port closed): work that can end
   * early, such as a search, ends then, since nobody waits for its answer.
   */
  handle(message: unknown, gone?: AbortSignal): Promise<ResultMessage>;
  /** The engine, for a transport that carries bytes beside the calls (the browser host's download and upload). */
  readonly engine: HistoryEngine;
  /** Runs such a transport's work under an operationId, so the `cancel` call stops it like any call's. */
  run<T>(operationId: string, work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  subscribe(listener: (event: HindsightEvent) => void): () => void;
  /** Cancels running work and stops the watchers (writing their open groups); the engine itself is closed by its owner. */
  close(): Promise<void>;
}

export interface DispatcherOptions {
  /** Record changes live in every opened project (default true; tests of other things turn it off). */
  watch?: boolean;
  /** Look at every known project's folder now and report changed states (the app and the host do). */
  sweep?: boolean;
  /** 'keychain' (default: the app, whose main hands them over) or 'environment' (the browser host: useRemoteCredentials is refused). */
  credentials?: CredentialsSource;
  /** The process's background recorder, which the recording calls pause and resume (none: they answer NOT_RECORDING). */
  recording?: RecordingSwitch;
}

export function createDispatcher(engine: HistoryEngine, options: DispatcherOptions = {}): Dispatcher {
  const listeners = new Set<(event: HindsightEvent) => void>();
  const operations = new Operations();
  const base = { engine, operations, watch: options.watch ?? true, credentials: options.credentials ?? 'keychain', recording: options.recording ?? null };
  const forward = (event: HindsightEvent): void => {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch {
        // A subscriber whose transport broke must not stop the others or the work.
      }
    }
  };
  const stopForwarding = engine.events.on(forward);

  const stopSweep = new AbortController();
  if (options.sweep) void engine.sweepProjects(stopSweep.signal);

  async function answer(message: unknown, gone: AbortSignal): Promise<Result<unknown>> {
    const envelope = readable(() => callMessageSchema.safeParse(message));
    if (!envelope.success) return failure(badRequest('call', envelope.error));
    const { call, args } = envelope.data;
    if (!isCallName(call)) {
      return failure(new HindsightError('BAD_REQUEST', `There is no call named ${JSON.stringify(call.slice(0, 100))}.`, { call }));
    }
    const parsed = readable(() => CALLS[call].request.safeParse(args), call);
    if (!parsed.success) return failure(badRequest(call, parsed.error));
    // The table is total (routes.ts); TypeScript cannot pair a union of names with its route's request.
    const route = ROUTES[call] as (request: unknown, ctx: RouteContext) => unknown;
    return { ok: true, value: await route(parsed.data, { ...base, gone }) };
  }

  return {
    engine,
    run: (operationId, work) => operations.run(operationId, work),
    async handle(message, gone = NEVER) {
      const id = idOf(message);
      try {
        return { kind: 'result', id, result: await answer(message, gone) };
      } catch (error) {
        return { kind: 'result', id, result: failure(error) };
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      stopSweep.abort();
      operations.cancelAll();
      stopForwarding();
      listeners.clear();
      await engine.unwatchAll();
    },
  };
}

/** The caller of a call that came without a signal never goes away. */
const NEVER = new AbortController().signal;

/**
 * Runs a validation; a value that throws while being read (a getter, a proxy: possible only for
 * in-process callers, never after a structured clone or JSON) is a bad request too.
 */
function readable<T>(validate: () => T, call = 'call'): T {
  try {
    return validate();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new HindsightError('BAD_REQUEST', `The ${call} request could not be read (${why}).`, { call });
  }
}

function failure(error: unknown): Result<never> {
  return { ok: false, error: errorData(error) };
}

/** The caller's id when one can be read safely, else -1 (the caller cannot match it anyway). */
function idOf(message: unknown): number {
  try {
    const id = (message as { id?: unknown } | null)?.id;
    return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : -1;
  } catch {
    return -1;
  }
}
