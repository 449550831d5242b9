import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';

// Where the viewer's page comes from: electron-vite's dev server while developing, else the built
// file beside main. Also the one test of "is this frame our own page" that IPC checks rely on.

const here = fileURLToPath(new URL('.', import.meta.url));

export function rendererUrl(): string {
  const dev = process.env.ELECTRON_RENDERER_URL;
  return dev ? dev : pathToFileURL(join(here, '../renderer/index.html')).href;
}

export function preloadPath(): string {
  return join(here, '../preload/index.cjs');
}

export function historyEntryPath(): string {
  return join(here, 'entry.js');
}

/** Whether a URL is the app's own page (any route or query of it), never another site or file. */
export function isAppUrl(url: string): boolean {
  let candidate: URL;
  let own: URL;
  try {
    candidate = new URL(url);
    own = new URL(rendererUrl());
  } catch {
    return false;
  }
  if (own.protocol === 'file:') return candidate.protocol === 'file:' && candidate.pathname === own.pathname;
  return candidate.origin === own.origin;
}
