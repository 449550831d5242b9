import { closeSync, fchmodSync, fsyncSync, openSync, readdirSync, readFileSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

// Before Hindsight reports a config.json it cannot use, it keeps the bytes exactly as they are in
// config.json.corrupt-<timestamp> (readable by the owner only: it lists the user's folders), so
// whatever happens to config.json next, nothing the user had is lost. Reading the same bad bytes
// again reuses the backup already made instead of piling up copies.

export const CORRUPT_MARK = '.corrupt-';

export function backupCorrupt(configPath: string, bytes: Buffer, now: Date = new Date()): string {
  return findIdenticalBackup(configPath, bytes) ?? writeBackup(configPath, bytes, now);
}

function findIdenticalBackup(configPath: string, bytes: Buffer): string | undefined {
  const folder = dirname(configPath);
  const prefix = `${basename(configPath)}${CORRUPT_MARK}`;
  let names: string[];
  try {
    names = readdirSync(folder)
      .filter((name) => name.startsWith(prefix))
      .sort();
  } catch {
    return undefined;
  }
  for (const name of names) {
    const path = join(folder, name);
    try {
      if (statSync(path).size === bytes.length && readFileSync(path).equals(bytes)) return path;
    } catch {
      // a backup that vanished or cannot be read is simply not reused
    }
  }
  return undefined;
}

function writeBackup(configPath: string, bytes: Buffer, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', '');
  for (let attempt = 0; ; attempt++) {
    const path = `${configPath}${CORRUPT_MARK}${stamp}${attempt === 0 ? '' : `-${attempt}`}`;
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 100) continue;
      throw error;
    }
    try {
      fchmodSync(fd, 0o600);
      for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return path;
  }
}
