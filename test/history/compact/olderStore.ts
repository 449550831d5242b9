import Database from 'better-sqlite3';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { projectIdOf } from '../../../electron/history/project/projectId.js';
import { decompressBlob } from '../../../electron/history/codec/blobCodec.js';
import { blobsDirOf, historyDbPath, projectStoreDir } from '../../../electron/history/store/storeLayout.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, writeTree, type TreeSpec } from '../../helpers/writeTree.js';

// A history store as a Hindsight of before compressed blobs left it: every blob raw, and no
// blob's bytes on disk known to the index (stored_size NULL, as migration 13 leaves the rows of
// sizes compression may apply to). Made by a real first copy, then each compressed blob written
// back raw, with the rows' stored sizes forgotten.

/** A source-like text of about `lines` x 60 bytes, different for each `seed`: compresses well. */
export function sourceText(seed: number, lines = 200): string {
  return Array.from({ length: lines }, (_, i) => `export function step${seed}_${i}(value: number): number { return value * ${i} + ${seed}; }\n`).join('');
}

/** 20,000 bytes that do not compress. */
export const NOISE = seededBytes(7, 20_000);

export interface OlderStore {
  root: string;
  dataDir: string;
  storeDir: string;
  blobsDir: string;
}

export async function olderStore(spec: TreeSpec): Promise<OlderStore> {
  const root = tempDir();
  writeTree(root, spec);
  const dataDir = tempDir('hindsight-data-');
  const engine = new HistoryEngine(dataDir);
  try {
    await engine.open(root);
  } finally {
    engine.close();
  }
  const storeDir = projectStoreDir(dataDir, projectIdOf(root));
  const blobsDir = blobsDirOf(storeDir);
  for (const folder of readdirSync(blobsDir).filter((name) => /^[0-9a-f]{2}$/.test(name))) {
    for (const name of readdirSync(join(blobsDir, folder)).filter((n) => n.endsWith('.zst'))) {
      const file = join(blobsDir, folder, name);
      writeFileSync(file.slice(0, -'.zst'.length), decompressBlob(readFileSync(file)), { mode: 0o600 });
      rmSync(file);
    }
  }
  const db = new Database(historyDbPath(storeDir));
  try {
    db.exec('UPDATE blobs SET stored_size = NULL WHERE size > 4096 AND size <= 1048576');
  } finally {
    db.close();
  }
  return { root, dataDir, storeDir, blobsDir };
}

/** Every file under blobs/ (relative path), temps included. */
export function blobFiles(blobsDir: string): string[] {
  return (readdirSync(blobsDir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name).slice(blobsDir.length + 1))
    .sort();
}

/** The stored_size column of every blob row, by hash. */
export function storedSizes(storeDir: string): Record<string, number | null> {
  const db = new Database(historyDbPath(storeDir), { readonly: true });
  try {
    return Object.fromEntries(
      (db.prepare('SELECT hash, stored_size FROM blobs').all() as { hash: string; stored_size: number | null }[]).map((r) => [r.hash, r.stored_size]),
    );
  } finally {
    db.close();
  }
}
