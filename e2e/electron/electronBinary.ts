import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Where the Electron binary is, found the way the electron package itself finds it (path.txt and
// dist/), without requiring the package: its index.js throws, and its install script downloads.

const root = fileURLToPath(new URL('../../', import.meta.url));
const electronDir = join(root, 'node_modules', 'electron');

export type ElectronBinary = { found: true; path: string } | { found: false; reason: string };

export function electronBinary(): ElectronBinary {
  const pathTxt = join(electronDir, 'path.txt');
  const dist = join(electronDir, 'dist');
  if (!existsSync(pathTxt) || !existsSync(dist)) {
    return { found: false, reason: 'the Electron binary is not installed (node_modules/electron has no path.txt or dist/)' };
  }
  const path = join(dist, readFileSync(pathTxt, 'utf8').trim());
  return existsSync(path) ? { found: true, path } : { found: false, reason: `the Electron binary named in path.txt is missing (${path})` };
}

export const MAIN_ENTRY = join(root, 'out', 'main', 'index.js');
