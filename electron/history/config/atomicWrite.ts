import { randomBytes } from 'node:crypto';
import { open, rename as renameFile, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

// Replaces a file so that a reader, or a crash, sees either the old bytes or the new ones, never
// a mix: the bytes go to a temp file in the same folder (a rename across file systems is not
// atomic), are flushed to disk, and the temp is renamed over the file; then the folder is flushed
// so the rename itself survives a power cut.

export type RenameFn = (from: string, to: string) => Promise<void>;

export const TEMP_MARK = '.tmp-';

export async function atomicWrite(path: string, data: Uint8Array | string, options: { mode?: number; rename?: RenameFn } = {}): Promise<void> {
  const temp = join(dirname(path), `${basename(path)}${TEMP_MARK}${process.pid}-${randomBytes(6).toString('hex')}`);
  const mode = options.mode ?? 0o600;
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.chmod(mode); // the umask may have narrowed or widened the mode of the create
      await handle.sync();
    } finally {
      await handle.close();
    }
    await (options.rename ?? renameFile)(temp, path);
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
