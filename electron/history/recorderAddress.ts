import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HindsightError } from '../../shared/errors.js';
import { PRIVATE_DIR_MODE } from './privateModes.js';

// Where the recorder of a data folder listens (recorder/recorderEndpoint.ts) and where a command finds
// it (recorderClient.ts): a Unix socket in a folder only its owner may enter, in $XDG_RUNTIME_DIR
// (the user's own, cleared at logout) when set, else under the temp folder. A socket's path is
// limited to about 108 bytes, so the data folder is named by a hash of its real path, never
// spelled out. The token that every request carries lives in the data folder, 0600: whoever can
// read it can read the histories anyway.

/** The token file in the data folder, written by the recorder when it starts listening. */
export const RECORDER_TOKEN_FILE = 'recorder.token';

export interface RecorderAddress {
  /** The socket's path. */
  socket: string;
  /** The token file's path. */
  tokenFile: string;
}

/** The socket and token of a data folder's recorder (the socket's folder made 0700 when missing). */
export function recorderAddress(dataDir: string): RecorderAddress {
  let real = dataDir;
  try {
    real = realpathSync(dataDir);
  } catch {
    // Not made yet: its spelling as given names it, as it will once made by that spelling.
  }
  const name = createHash('sha256').update(real).digest('hex').slice(0, 32);
  return { socket: join(socketFolder(), `rec-${name}.sock`), tokenFile: join(dataDir, RECORDER_TOKEN_FILE) };
}

function socketFolder(): string {
  const runtime = process.env.XDG_RUNTIME_DIR;
  const folder = runtime && runtime.startsWith('/') ? join(runtime, 'hindsight') : join(tmpdir(), `hindsight-${process.getuid?.() ?? 'user'}`);
  try {
    mkdirSync(folder, PRIVATE_DIR_MODE);
    chmodSync(folder, PRIVATE_DIR_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  privateFolder(folder);
  return folder;
}

/** A folder under a shared temp folder may have been made by someone else: it is used only when it is ours and closed to others. */
function privateFolder(folder: string): void {
  const stats = lstatSync(folder);
  const uid = process.getuid?.();
  if (!stats.isDirectory() || (uid !== undefined && stats.uid !== uid)) {
    throw new HindsightError('PERMISSION_DENIED', `${folder} is not a folder of this user's: the recorder's socket is not placed there.`, { path: folder });
  }
  if ((stats.mode & 0o077) !== 0) chmodSync(folder, PRIVATE_DIR_MODE);
}
