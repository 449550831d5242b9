import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { count } from '../trace.js';
import { COMPRESSED_HEADER, compressedRawLength } from '../codec/blobCodec.js';
import { CHUNK_LIST_HEADER, chunkListRawLength } from './chunkList.js';
import { blobFilePath, blobOfFileName, FAN_OUT_FOLDER, namesIn, type BlobForm } from './storeLayout.js';
import type { BlobStore } from './blobStore.js';

// Which blobs a store holds, answered from folder listings instead of a system call per blob: a
// bulk write (an import of 50,000 small blobs into a fresh store) otherwise pays a failed stat for
// every blob before writing it. blobs/ is listed once, on the first question; a fan-out folder it
// does not name holds nothing (no call at all), and one it names is listed on the first question
// about a hash in it (names only). Only a hash a listing names is looked at, for its length (a
// raw file's size, a compressed one's recorded raw length): a file of the wrong length is not
// held, and is written again over it.
//
// The listing is of the moment it was taken. It is only right while nobody else writes the store,
// which the writer lock held for the whole import ensures; what the caller places itself it
// reports with `placed`.

export class StoredBlobs {
  #folders: Set<string> | undefined;
  readonly #listed = new Map<string, Map<string, BlobForm>>();
  readonly #placed = new Set<string>();

  constructor(blobs: BlobStore) {
    this.blobsDir = blobs.dir;
  }

  private readonly blobsDir: string;

  /** A file holds `hash` in the store (whatever its size): a rename onto it replaces a blob. */
  named(hash: string): boolean {
    return this.#placed.has(hash) || this.#namesIn(hash.slice(0, 2)).has(hash);
  }

  /** Held: its file is in the store with `size` raw bytes (a look only at a file the listing names). */
  has(hash: string, size: number): boolean {
    if (this.#placed.has(hash)) return true;
    const form = this.#namesIn(hash.slice(0, 2)).get(hash);
    if (form === undefined) return false;
    count('store.blobStats');
    try {
      return rawLength(blobFilePath(this.blobsDir, hash, form), form) === size;
    } catch {
      return false;
    }
  }

  /** The caller put `hash` in place (the right bytes, checked). */
  placed(hash: string): void {
    this.#placed.add(hash);
  }

  #namesIn(prefix: string): Map<string, BlobForm> {
    let names = this.#listed.get(prefix);
    if (names) return names;
    this.#folders ??= new Set(namesOf(this.blobsDir).filter((name) => FAN_OUT_FOLDER.test(name)));
    names = new Map();
    for (const name of this.#folders.has(prefix) ? namesOf(join(this.blobsDir, prefix)) : []) {
      const blob = blobOfFileName(name);
      if (blob) names.set(blob.hash, blob.form);
    }
    this.#listed.set(prefix, names);
    return names;
  }
}

/** The raw length a blob's file holds: a raw file's size, a compressed one's or a chunk list's header. */
function rawLength(file: string, form: BlobForm): number {
  if (form === 'raw') return statSync(file).size;
  const fd = openSync(file, 'r');
  try {
    const header = Buffer.alloc(Math.max(COMPRESSED_HEADER, CHUNK_LIST_HEADER));
    readSync(fd, header, 0, header.length, 0);
    return form === 'compressed' ? compressedRawLength(header) : chunkListRawLength(header);
  } finally {
    closeSync(fd);
  }
}

function namesOf(dir: string): string[] {
  count('store.blobListings');
  return namesIn(dir);
}
