import { randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { open, rename as renameFile, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

// Replaces a file so that a reader, or a crash, sees either the old bytes or the new ones, never
// a mix: the bytes go to a temp file in the same folder (a rename across file systems is not
// atomic), are flushed to disk, and the temp is renamed over the file; then the folder is flushed
// so the rename itself survives a power cut. `replaced` runs right after the rename, in the same
// turn, with the temp file's stat taken before it: the rename keeps its inode, size and mtime, so
// a caller can tell its own file on disk from one another writer renamed over it since.

export type RenameFn = (from: string, to: string) => Promise<void>;

export const TEMP_MARK = '.tmp-';

export interface AtomicWriteOptions {
  mode?: number;
  rename?: RenameFn;
  replaced?: (written: BigIntStats) => void;
}

export async function atomicWrite(path: string, data: Uint8Array | string, options: AtomicWriteOptions = {}): Promise<void> {
  const temp = join(dirname(path), `${basename(path)}${TEMP_MARK}${process.pid}-${randomBytes(6).toString('hex')}`);
  const mode = options.mode ?? 0o600;
  let written: BigIntStats;
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.chmod(mode); // the umask may have narrowed or widened the mode of the create
      await handle.sync();
      written = await handle.stat({ bigint: true });
    } finally {
      await handle.close();
    }
    await (options.rename ?? renameFile)(temp, path);
    options.replaced?.(written);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncFolder(dirname(path));
}

async function syncFolder(folder: string): Promise<void> {
  // Some platforms cannot open or flush a folder (Windows): the rename is then as durable as they allow.
  const handle = await open(folder, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // ignored for the reason above
  } finally {
    await handle.close();
  }
}
