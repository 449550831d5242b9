import { net, protocol } from 'electron';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { servedSegments } from '../../shared/urlPath.js';
import { APP_ORIGIN } from './rendererLocation.js';
import { CSP } from './security.js';

// The built viewer is served as app://hindsight/, not file://: the page gets a real origin, the
// strict CSP as a response header, and no file outside out/renderer/ can ever be read through it.

const rendererDir = resolve(fileURLToPath(new URL('../renderer/', import.meta.url)));

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

export function serveAppProtocol(): void {
  protocol.handle('app', async (request) => {
    const url = new URL(request.url);
    const segments = `${url.protocol}//${url.host}` === APP_ORIGIN ? servedSegments(url.pathname) : null;
    // eslint-disable-next-line no-restricted-syntax -- a URL path's segments: bounded by the URL's length
    const file = segments ? join(rendererDir, ...segments) : null;
    if (!file || !file.startsWith(rendererDir + sep)) return new Response('Not found', { status: 404 });
    const response = await net.fetch(pathToFileURL(file).href).catch(() => null);
    if (!response || !response.ok) return new Response('Not found', { status: 404 });
    const headers = new Headers(response.headers);
    headers.set('Content-Security-Policy', CSP);
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(response.body, { status: 200, headers });
  });
}
