import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EventMessage, ServerMessage } from '../../shared/contract/wire.js';
import { HindsightError } from '../../shared/errors.js';
import type { Dispatcher } from '../history/dispatcher/dispatcher.js';
import { authorize, sameOrigin, type Gate } from './authorize.js';

// window.hindsight over a WebSocket: the same dispatcher as the Electron app's MessagePorts, with
// JSON instead of structured clones. The upgrade is refused without the token, from another
// origin, or on any path but /ws.

const MAX_MESSAGE_BYTES = 1024 * 1024;
/** A slow tab gets no more progress ticks once this much is queued (the final one always goes). */
const PROGRESS_BACKLOG_BYTES = 4 * 1024 * 1024;

export function attachSockets(server: Server, dispatcher: Dispatcher, gate: Gate, onPages?: (count: number) => void): () => void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://host.invalid');
    const verdict = url.pathname === '/ws' ? authorize(request, gate, url) : ({ ok: false, status: 404, reason: 'no such socket' } as const);
    if (!verdict.ok || !sameOrigin(request)) {
      const status = verdict.ok ? 403 : verdict.status;
      socket.end(
        `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : 'Forbidden'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      serveSocket(dispatcher, ws);
      onPages?.(wss.clients.size);
      // The server's client set drops a socket when it closes, before this listener runs.
      ws.once('close', () => onPages?.(wss.clients.size));
    });
  });
  return () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  };
}

function serveSocket(dispatcher: Dispatcher, ws: WebSocket): void {
  const send = (message: ServerMessage): void => {
    if (ws.readyState !== ws.OPEN) return;
    ws.send(JSON.stringify(message));
  };
  const unsubscribe = dispatcher.subscribe((event) => {
    if (event.event === 'progress' && event.payload.phase !== 'done' && ws.bufferedAmount > PROGRESS_BACKLOG_BYTES) return;
    send({ kind: 'event', ...event } as EventMessage);
  });
  // The page went away: its searches still running end, since nobody reads their answers.
  const gone = new AbortController();
  ws.on('message', (data, isBinary) => {
    let message: unknown;
    try {
      message = JSON.parse(isBinary ? '' : String(data));
    } catch {
      message = undefined; // the dispatcher answers it as a malformed call
    }
    void dispatcher.handle(message, gone.signal).then(send);
  });
  const end = (): void => {
    unsubscribe();
    gone.abort(new HindsightError('CANCELLED', 'The page went away.'));
  };
  ws.on('close', end);
  ws.on('error', end);
}
