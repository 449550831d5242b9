import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import type { FolderListing } from '../../shared/contract.js';
import type { Result } from '../../shared/contract/result.js';
import { HindsightError } from '../../shared/errors.js';
import { errorData } from '../history/errorData.js';
import type { Dispatcher } from '../history/dispatcher/dispatcher.js';
import { authorize, cookieName, sameOrigin, type Gate } from './authorize.js';
import { BundleTransfers } from './bundleTransfers.js';
import { closeAfterAnswer } from './closeAfterAnswer.js';
import { listFolders } from './folderBrowser.js';
import { isLoopbackHost } from './loopback.js';
import { attachSockets } from './socketBridge.js';
import { sendStatic, type HostMeta } from './staticFiles.js';
import { newToken } from './token.js';

// The browser host: the built viewer and window.hindsight (over a WebSocket) for one dispatcher,
// on 127.0.0.1 by default. Every HTTP request and the socket need the token; the first page load
// (?token=) leaves it in an HttpOnly, same-site cookie so the page's own assets and socket work.

export interface HostOptions {
  dispatcher: Dispatcher;
  rendererDir: string;
  host?: string;
  port?: number;
  allowRemote?: boolean;
  token?: string;
  meta: HostMeta;
  /** The largest bundle an import upload may be (default bundleTransfers.ts DEFAULT_MAX_UPLOAD_BYTES). */
  maxUploadBytes?: number;
  /** The top of the folders "Open folder…" may browse (folderBrowser.ts); the home folder by default. */
  browseRoot?: string;
  /** Told the number of pages connected each time one connects or goes away. */
  onPages?: (count: number) => void;
}

export interface RunningHost {
  url: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // The URL carries the token: never send it on to another site.
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export async function startHost(options: HostOptions): Promise<RunningHost> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && !options.allowRemote) {
    throw new HindsightError(
      'BAD_REQUEST',
      `Refusing to serve on ${host}: anyone who can reach it could read your history. Use a loopback address (127.0.0.1), or pass --allow-remote if you really mean it.`,
      { host },
    );
  }
  const token = options.token ?? newToken();
  const gate: Gate = { token, port: 0, anyHost: !isLoopbackHost(host) };
  const transfers = new BundleTransfers(options.dispatcher, options.maxUploadBytes);
  const server = createServer((req, res) => void answer(req, res, gate, options, transfers));
  // Connections are few and long-lived (one socket per tab); a stuck request must not hold the
  // port: its headers must come within 30 s. The body is not timed as a whole (a bundle upload
  // may be large) but may not stall: an upload idle for a minute is dropped (bundleTransfers.ts).
  server.headersTimeout = 30_000;
  server.requestTimeout = 0;
  const closeSockets = attachSockets(server, options.dispatcher, gate, options.onPages);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  gate.port = port;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}/?token=${token}`,
    token,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        closeSockets();
        transfers.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, gate: Gate, options: HostOptions, transfers: BundleTransfers): Promise<void> {
  try {
    const url = new URL(req.url ?? '/', 'http://host.invalid');
    const verdict = authorize(req, gate, url);
    if (!verdict.ok) return refuse(req, res, verdict.status, `${verdict.status === 401 ? 'Unauthorized' : 'Forbidden'}: ${verdict.reason}.\n`);
    if (url.pathname.startsWith('/transfer/')) {
      // Bundles to and from the page: from our own page only (a POST from another site never counts).
      if (!sameOrigin(req)) return refuse(req, res, 403, 'Forbidden: transfers are served to the viewer this host serves.\n');
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
      if (await transfers.handle(req, res, url)) return;
      return refuse(req, res, 404, 'Not found.\n');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(req, res, 405, 'Only GET is served.\n');
    if (url.pathname === '/folders') {
      // The user's folder names: to our own page only.
      if (!sameOrigin(req)) return refuse(req, res, 403, 'Forbidden: folders are listed to the viewer this host serves.\n');
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
      return answerFolders(res, url, options.browseRoot ?? homedir());
    }
    if (verdict.viaQuery) {
      res.setHeader('Set-Cookie', `${cookieName(gate.port)}=${gate.token}; HttpOnly; SameSite=Strict; Path=/`);
    }
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    if (await sendStatic(options.rendererDir, url.pathname, res, options.meta)) return;
    if (url.pathname === '/' || url.pathname === '/index.html') {
      return plain(res, 503, `The viewer is not built (no index.html in ${options.rendererDir}). Run \`npm run build\`, then start hindsight serve again.\n`);
    }
    plain(res, 404, 'Not found.\n');
  } catch (error) {
    plain(res, 500, `Hindsight could not answer: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

function answerFolders(res: ServerResponse, url: URL, browseRoot: string): void {
  let result: Result<FolderListing>;
  try {
    result = { ok: true, value: listFolders(url.searchParams.get('path'), browseRoot) };
  } catch (error) {
    result = { ok: false, error: errorData(error) };
  }
  const status = result.ok ? 200 : result.error.code === 'PATH_OUTSIDE_ROOT' ? 403 : result.error.code === 'FOLDER_NOT_FOUND' ? 404 : 400;
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(result));
}

/** Answers without reading a body the client may still be sending, then closes the connection. */
function refuse(req: IncomingMessage, res: ServerResponse, status: number, text: string): void {
  closeAfterAnswer(req, res);
  plain(res, status, text);
}

function plain(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  res.end(text);
}
