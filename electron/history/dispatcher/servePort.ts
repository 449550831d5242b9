import type { EventMessage, ServerMessage } from '../../../shared/contract/wire.js';
import { HindsightError } from '../../../shared/errors.js';
import type { Dispatcher } from './dispatcher.js';

// Serves one message port (Electron's MessagePortMain or a worker_threads MessagePort) with the
// dispatcher: calls in, results and every event out, until the port closes.

export interface PortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  start?(): void;
  close(): void;
}

/**
 * `unwrap` turns what the port's 'message' event gives into the message itself (Electron wraps it
 * in `{ data, ports }`; worker_threads does not). Returns a function that stops serving.
 */
export function servePort(dispatcher: Dispatcher, port: PortLike, unwrap: (event: unknown) => unknown = (m) => m): () => void {
  let open = true;
  const post = (message: ServerMessage): void => {
    if (!open) return;
    try {
      port.postMessage(message);
    } catch (error) {
      // A value the port cannot clone is a bug in a route: answer the caller rather than leave it waiting.
      if (message.kind === 'result') {
        const text = error instanceof Error ? error.message : String(error);
        port.postMessage({ ...message, result: { ok: false, error: { code: 'INTERNAL', message: `The answer could not be sent: ${text}.` } } });
      }
    }
  };
  const unsubscribe = dispatcher.subscribe((event) => post({ kind: 'event', ...event } as EventMessage));
  // The window went away: its searches still running end, since nobody reads their answers.
  const gone = new AbortController();
  const stop = (): void => {
    if (!open) return;
    open = false;
    unsubscribe();
    gone.abort(new HindsightError('CANCELLED', 'The window went away.'));
  };
  port.on('message', (event) => {
    void dispatcher.handle(unwrap(event), gone.signal).then(post);
  });
  port.on('close', stop);
  port.start?.();
  return () => {
    stop();
    port.close();
  };
}
