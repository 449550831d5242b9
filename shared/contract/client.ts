import { errorFromData, type HindsightErrorData } from '../errors.js';
import type { EventName, HindsightEvent } from '../contract.js';
import { CALL_NAME_LIST, EVENT_NAME_LIST } from './names.js';
import type { HindsightCalls } from '../hindsightApi.js';
import type { Result } from './result.js';
import type { CallMessage } from './wire.js';

// The caller's side of the wire, shared by the Electron preload (MessagePort) and the browser
// host's page (WebSocket): numbers calls, matches answers, fans events out to listeners. When
// the connection is lost, calls in flight answer DISCONNECTED; a new connection takes over.

export interface Transport {
  send(message: CallMessage): void;
}

export interface ContractClient {
  calls: HindsightCalls;
  onEvent(listener: (event: HindsightEvent) => void): () => void;
  /** Use this transport from now on; feed its incoming messages to `receive`. */
  connect(transport: Transport): void;
  /** The transport is gone: fail what is in flight, queue new calls until the next connect. */
  disconnect(reason: string): void;
  /** One message from the current transport (a result or an event). */
  receive(message: unknown): void;
  /** Emits an event that comes from the bridge itself (connection, appCommand). */
  emit(event: HindsightEvent): void;
}

interface Pending {
  resolve: (result: Result<unknown>) => void;
}

export interface ClientOptions {
  /** Where a listener's exception goes (one listener's bug must not starve the others). */
  reportError?: (error: unknown) => void;
}

export function createContractClient(options: ClientOptions = {}): ContractClient {
  let transport: Transport | null = null;
  let everConnected = false;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const queued: CallMessage[] = [];
  const listeners = new Set<(event: HindsightEvent) => void>();

  const emit = (event: HindsightEvent): void => fanOut(listeners, event, options.reportError);

  const send = (message: CallMessage): void => {
    if (!transport) {
      queued.push(message);
      return;
    }
    try {
      transport.send(message);
    } catch (error) {
      settle(message.id, { ok: false, error: transportError('send', error) });
    }
  };

  const settle = (id: number, result: Result<unknown>): void => {
    const waiting = pending.get(id);
    if (!waiting) return;
    pending.delete(id);
    waiting.resolve(result);
  };

  const calls = Object.fromEntries(
    CALL_NAME_LIST.map((name) => [
      name,
      (args: unknown) =>
        new Promise<Result<unknown>>((resolve) => {
          const id = nextId++;
          pending.set(id, { resolve });
          send({ kind: 'call', id, call: name, args: args ?? {} });
        }),
    ]),
  ) as unknown as HindsightCalls;

  return {
    calls,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    connect(next) {
      const restored = everConnected;
      transport = next;
      everConnected = true;
      for (const message of queued.splice(0)) send(message);
      if (restored) emit({ event: 'connection', payload: { state: 'restored' } });
    },
    disconnect(reason) {
      if (!transport) return;
      transport = null;
      const error = wentAway(reason);
      for (const id of [...pending.keys()]) {
        if (!queued.some((m) => m.id === id)) settle(id, { ok: false, error });
      }
      emit({ event: 'connection', payload: { state: 'lost' } });
    },
    receive(message) {
      if (!message || typeof message !== 'object') return;
      const m = message as Record<string, unknown>;
      if (m.kind === 'result' && typeof m.id === 'number') {
        settle(m.id, normaliseResult(m.result));
      } else if (m.kind === 'event' && (EVENT_NAME_LIST as readonly string[]).includes(m.event as EventName)) {
        emit({ event: m.event, payload: m.payload } as HindsightEvent);
      }
    },
    emit,
  };
}

/** Tells every listener; one that throws is reported and the others still hear it. */
function fanOut(listeners: ReadonlySet<(event: HindsightEvent) => void>, event: HindsightEvent, reportError: ClientOptions['reportError']): void {
  for (const listener of [...listeners]) {
    try {
      listener(event);
    } catch (error) {
      reportError?.(error);
    }
  }
}

/** The answer of every call in flight when the connection is lost. */
function wentAway(reason: string): HindsightErrorData {
  return {
    code: 'DISCONNECTED',
    message: `The history process went away (${reason}). Hindsight restarts it; try again.`,
  };
}

/** A result as it arrived, checked: a malformed one becomes a typed error, never a throw. */
function normaliseResult(raw: unknown): Result<unknown> {
  if (raw && typeof raw === 'object') {
    const r = raw as Record<string, unknown>;
    if (r.ok === true) return { ok: true, value: r.value };
    if (r.ok === false) return { ok: false, error: errorFromData(r.error).toJSON() };
  }
  return { ok: false, error: { code: 'INTERNAL', message: 'The history process sent a malformed answer.' } };
}

function transportError(what: string, error: unknown): HindsightErrorData {
  return {
    code: 'DISCONNECTED',
    message: `Could not ${what} the call to the history process: ${error instanceof Error ? error.message : String(error)}.`,
  };
}
