import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { ServerResponse } from 'node:http';
import { servedSegments } from '../../shared/urlPath.js';

// The built viewer (out/renderer/), read-only, never a byte outside its folder. index.html gets
// the bridge that defines window.hindsight over the WebSocket, ahead of the viewer's own script.

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
};

export const BRIDGE_SCRIPT = 'assets/hindsight-bridge.js';

export interface HostMeta {
  platform: string;
  version: string;
}

/** Sends the file a URL path names under `dir`; false when there is none (the caller answers 404). */
export async function sendStatic(dir: string, pathname: string, res: ServerResponse, meta: HostMeta): Promise<boolean> {
  const file = fileFor(dir, pathname);
  if (!file) return false;
  let body: Buffer;
  try {
    if (!(await stat(file)).isFile()) return false;
    body = await readFile(file);
  } catch {
    return false;
  }
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  if (extname(file) === '.html') body = Buffer.from(injectBridge(body.toString('utf8'), meta), 'utf8');
  res.writeHead(200, { 'Content-Type': type, 'Content-Length': body.length, 'Cache-Control': 'no-store' });
  res.end(body);
  return true;
}

/** The file a URL path names, or null for anything that would leave `dir` or is not a plain path. */
export function fileFor(dir: string, pathname: string): string | null {
  const segments = servedSegments(pathname);
  if (!segments) return null;
  const root = resolve(dir);
  // eslint-disable-next-line no-restricted-syntax -- a URL path's segments: bounded by the URL's length
  const file = join(root, ...segments);
  return file.startsWith(root + sep) ? file : null;
}

export function injectBridge(html: string, meta: HostMeta): string {
  const content = JSON.stringify({ kind: 'browser', ...meta })
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;');
  const tags = `<meta name="hindsight-host" content="${content}"><script type="module" src="/${BRIDGE_SCRIPT}"></script>`;
  // Before the viewer's first script (module scripts run in document order) and after the page's
  // CSP meta, so the policy covers the bridge too; else at the end of <head>.
  const script = html.search(/<script\b/i);
  const headEnd = html.search(/<\/head>/i);
  const at = script >= 0 && (headEnd < 0 || script < headEnd) ? script : headEnd >= 0 ? headEnd : 0;
  return html.slice(0, at) + tags + html.slice(at);
}
