import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

// Where the viewer's page comes from: electron-vite's dev server while developing, else the built
// files beside main, served as app://hindsight/ (appProtocol.ts). Also the one test of "is this frame our own page" that IPC checks rely on.

const here = fileURLToPath(new URL('.', import.meta.url));

/** The origin of the built viewer (see appProtocol.ts). */
export const APP_ORIGIN = 'app://hindsight';

export function rendererUrl(): string {
  return process.env.ELECTRON_RENDERER_URL || `${APP_ORIGIN}/index.html`;
}

export function preloadPath(): string {
  return join(here, '../preload/index.cjs');
}

export function historyEntryPath(): string {
  return join(here, 'entry.js');
}

/** Whether a URL is the app's own page (any route or query of it), never another site or file. */
export function isAppUrl(url: string): boolean {
  try {
    // By scheme and host: a non-special scheme such as app: has an opaque ('null') origin in URL.
    const candidate = new URL(url);
    const own = new URL(rendererUrl());
    return candidate.protocol === own.protocol && candidate.host === own.host;
  } catch {
    return false;
  }
}
