import type { IncomingMessage, ServerResponse } from 'node:http';

// A request refused before its body was read (no token, too large, not a bundle): the answer
// goes out, the rest of the body is read and dropped for a moment so the client sees the answer
// rather than a reset, then the connection is closed. Nothing of the body is kept.

const LINGER_MS = 2_000;

export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  if (req.method === 'GET' || req.method === 'HEAD' || req.complete) return;
  if (!res.headersSent) res.setHeader('Connection', 'close');
  res.once('finish', () => {
    req.resume();
    setTimeout(() => req.destroy(), LINGER_MS).unref();
  });
}
