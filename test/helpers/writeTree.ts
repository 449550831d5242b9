import { chmodSync, mkdirSync, readdirSync, readFileSync, lstatSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';

// Writes a folder from a description, and reads one back, for comparing a restored tree with
// what was written byte for byte and bit for bit.

export type TreeSpec = Record<string, string | Buffer | { data: string | Buffer; mode?: number } | { link: string }>;

export function writeTree(root: string, spec: TreeSpec): void {
  for (const [path, value] of Object.entries(spec)) {
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof value === 'object' && 'link' in value) {
      symlinkSync(value.link, abs);
    } else if (typeof value === 'string' || Buffer.isBuffer(value)) {
      writeFileSync(abs, value);
    } else {
      writeFileSync(abs, value.data);
      if (value.mode !== undefined) chmodSync(abs, value.mode);
    }
  }
}

export interface TreeFile {
  type: 'file' | 'symlink';
  mode: number;
  hash: string;
  target?: string;
}

/** Every file and link under root (skipping .git), keyed by '/'-separated relative path. */
export function readTree(root: string, rel = ''): Record<string, TreeFile> {
  const out: Record<string, TreeFile> = {};
  for (const name of readdirSync(join(root, rel))) {
    if (name === '.git') continue;
    const path = rel ? `${rel}/${name}` : name;
    const abs = join(root, path);
    const st = lstatSync(abs);
    if (st.isDirectory()) Object.assign(out, readTree(root, path));
    else if (st.isSymbolicLink()) out[path] = { type: 'symlink', mode: st.mode & 0o7777, hash: '', target: readlinkSync(abs) };
    else out[path] = { type: 'file', mode: st.mode & 0o7777, hash: sha256(readFileSync(abs)) };
  }
  return out;
}

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Deterministic pseudo-random bytes (a fixed seed gives the same bytes on every run). */
export function seededBytes(seed: number, size: number): Buffer {
  const out = Buffer.allocUnsafe(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}
