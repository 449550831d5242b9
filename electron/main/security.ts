import { shell, type Session, type WebContents, type WebFrameMain } from 'electron';
import { isAppUrl } from './rendererLocation.js';

// The window's walls: a strict CSP header (the page carries the same as a meta tag), no
// navigation away from the app, no new windows, links out only to http(s) in the user's browser,
// no permissions (camera, notifications, ...) ever granted, and IPC only from our own page.

export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function secureSession(session: Session, dev: boolean): void {
  // The dev server needs inline scripts and its socket for hot reload; builds get the strict policy.
  if (!dev) {
    session.webRequest.onHeadersReceived((details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
    });
  }
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

export function guardContents(contents: WebContents): void {
  // The viewer is one page: any navigation (a dropped file, a link, a script) would leave it.
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternalSafely(url);
    return { action: 'deny' };
  });
}

/** Opens http(s) links in the user's browser; anything else (file:, javascript:, custom schemes) is dropped. */
export function openExternalSafely(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  void shell.openExternal(parsed.href);
  return true;
}

/** An IPC message counts only when it comes from the app's own page in the window's main frame. */
export function isTrustedSender(frame: WebFrameMain | null | undefined): boolean {
  if (!frame || frame.parent !== null) return false;
  return isAppUrl(frame.url);
}
