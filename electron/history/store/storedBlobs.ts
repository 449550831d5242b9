import { statSync } from 'node:fs';
import { join } from 'node:path';
import { count } from '../trace.js';
import { blobPath, FAN_OUT_FOLDER, namesIn, TEMP_PREFIX } from './storeLayout.js';

// Which blobs a store holds, answered from folder listings instead of a system call per blob: a
// bulk write (an import of 50,000 small blobs into a fresh store) otherwise pays a failed stat for
// every blob before writing it. blobs/ is listed once, on the first question; a fan-out folder it
// does not name holds nothing (no call at all), and one it names is listed on the first question
// about a hash in it (names only). Only a hash a listing names is stat'ed, for its size: a file
// of the wrong length is not held, and is written again over it.
//
// The listing is of the moment it was taken. It is only right while nobody else writes the store,
// which the writer lock held for the whole import ensures; what the caller places itself it
// reports with `placed`.

export class StoredBlobs {
  #folders: Set<string> | undefined;
  readonly #listed = new Map<string, Set<string>>();
  readonly #placed = new Set<string>();

  constructor(readonly blobsDir: string) {}

  /** A file named `hash` is in the store (whatever its size): a rename onto it replaces a blob. */
  named(hash: string): boolean {
    return this.#placed.has(hash) || this.#namesIn(hash.slice(0, 2)).has(hash);
  }

  /** Held: its file is in the store with `size` bytes (a stat only for a file the listing names). */
  has(hash: string, size: number): boolean {
    if (this.#placed.has(hash)) return true;
    if (!this.#namesIn(hash.slice(0, 2)).has(hash)) return false;
    count('store.blobStats');
    try {
      return statSync(blobPath(this.blobsDir, hash)).size === size;
    } catch {
      return false;
    }
  }

  /** The caller put `hash` in place (the right bytes, checked). */
  placed(hash: string): void {
    this.#placed.add(hash);
  }

  #namesIn(prefix: string): Set<string> {
    let names = this.#listed.get(prefix);
    if (names) return names;
    this.#folders ??= new Set(namesOf(this.blobsDir).filter((name) => FAN_OUT_FOLDER.test(name)));
    names = new Set(this.#folders.has(prefix) ? namesOf(join(this.blobsDir, prefix)).filter((name) => !name.startsWith(TEMP_PREFIX)) : []);
    this.#listed.set(prefix, names);
    return names;
  }
}

function namesOf(dir: string): string[] {
  count('store.blobListings');
  return namesIn(dir);
}
