import type { IncomingMessage } from 'node:http';
import { isLoopbackHost } from './loopback.js';
import { sameToken } from './token.js';

// Who may talk to the host: a request that names a loopback host (no DNS rebinding through another
// name, unless remote access was asked for), carries the token (in ?token= or the cookie the first page load sets) and, for a
// WebSocket, comes from our own page's origin. 401 without a token, 403 with a wrong one.

export interface Gate {
  token: string;
  port: number;
  /** With --allow-remote on a non-loopback address any Host header is served (the token still decides). */
  anyHost: boolean;
}

export type Verdict = { ok: true; viaQuery: boolean } | { ok: false; status: 401 | 403; reason: string };

export function cookieName(port: number): string {
  // Cookies ignore ports: two hosts on one machine must not overwrite each other's token.
  return `hindsight-token-${port}`;
}

export function authorize(request: IncomingMessage, gate: Gate, url: URL): Verdict {
  const hostHeader = request.headers.host ?? '';
  const hostName = hostHeader.replace(/:\d+$/, '');
  if (!gate.anyHost && !isLoopbackHost(hostName)) {
    return { ok: false, status: 403, reason: `requests for host ${JSON.stringify(hostHeader)} are not served` };
  }
  const fromQuery = url.searchParams.get('token');
  const fromCookie = readCookie(request.headers.cookie, cookieName(gate.port));
  const given = fromQuery ?? fromCookie;
  if (given === null || given === '') return { ok: false, status: 401, reason: 'a token is required (open the URL hindsight serve printed)' };
  if (!sameToken(given, gate.token)) return { ok: false, status: 403, reason: 'the token is wrong' };
  return { ok: true, viaQuery: fromQuery !== null };
}

/** A WebSocket from a browser must come from the page this host served (same scheme, host and port). */
export function sameOrigin(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true; // not a browser: the token alone decides
  return origin === `http://${request.headers.host ?? ''}`;
}

function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
