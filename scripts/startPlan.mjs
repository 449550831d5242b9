// What `npm start` can do on this machine: start the Electron app, or (when Electron cannot start
// here) build what is missing and serve the viewer to a browser. Pure decisions over the checkout
// and the environment, so they can be checked without starting anything.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where the Electron binary is, found the way the electron package itself finds it (path.txt and
 * dist/), without requiring the package: its index.js throws, and its install script downloads.
 * @param {string} root the checkout
 * @returns {{ found: true, path: string } | { found: false, reason: string }}
 */
export function electronBinary(root) {
  const electronDir = join(root, 'node_modules', 'electron');
  const pathTxt = join(electronDir, 'path.txt');
  const dist = join(electronDir, 'dist');
  if (!existsSync(pathTxt) || !existsSync(dist)) {
    return { found: false, reason: 'the Electron binary is not installed (node_modules/electron has no path.txt or dist/)' };
  }
  const path = join(dist, readFileSync(pathTxt, 'utf8').trim());
  return existsSync(path) ? { found: true, path } : { found: false, reason: `the Electron binary named in path.txt is missing (${path})` };
}

/**
 * Why the Electron app cannot start here, in a few words, or null when it can.
 * @param {{ root: string, env: Record<string, string | undefined>, platform: string }} machine
 * @returns {string | null}
 */
export function appBlocker({ root, env, platform }) {
  const binary = electronBinary(root);
  if (!binary.found) return binary.reason;
  if (platform !== 'darwin' && platform !== 'win32' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)';
  }
  return null;
}

/**
 * The builds the browser viewer needs that are not there yet.
 * @param {string} root the checkout
 * @returns {('cli' | 'viewer')[]}
 */
export function missingBuilds(root) {
  const missing = [];
  const cli = [
    'hindsight.js',
    'main.js',
    'copyWorker.js',
    'pruneWorker.js',
    'indexWorker.js',
    'commitWorker.js',
    'searchWorker.js',
    'packWorker.js',
    'compactWorker.js',
    'readWorker.js',
  ];
  if (!cli.every((file) => existsSync(join(root, 'out', 'cli', file)))) missing.push('cli');
  if (!existsSync(join(root, 'out', 'renderer', 'index.html'))) missing.push('viewer');
  return missing;
}
