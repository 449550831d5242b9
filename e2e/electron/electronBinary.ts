import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronBinary as findElectron } from '../../scripts/startPlan.mjs';

// Where the Electron binary is: the same answer `npm start` acts on (scripts/startPlan.mjs).

const root = fileURLToPath(new URL('../../', import.meta.url));

export type ElectronBinary = ReturnType<typeof findElectron>;

export function electronBinary(): ElectronBinary {
  return findElectron(root);
}

export const MAIN_ENTRY = join(root, 'out', 'main', 'index.js');
