import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

// Where Hindsight keeps its config and every project's history: --data-dir, then HINDSIGHT_DATA_DIR,
// then the platform's app data folder (the Electron app passes its userData folder explicitly).
export function resolveDataDir(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (explicit) return resolve(explicit);
  if (env.HINDSIGHT_DATA_DIR) return resolve(env.HINDSIGHT_DATA_DIR);
  return platformDataDir(env);
}

function platformDataDir(env: NodeJS.ProcessEnv): string {
  if (process.platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Hindsight');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Hindsight');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'hindsight');
}
