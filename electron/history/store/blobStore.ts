import { closeSync, createReadStream, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FsPath } from '../paths/fsPath.js';
import { makePrivateDir, tightenDir } from '../privateModes.js';
import { DamageListeners, type BlobPlace, type BlobProblem, type BlobSubject, type DamageListener } from './blobDamage.js';
import { readBlobHead } from './blobHead.js';
import { readBlobWhole, type ReadScratch } from './blobWhole.js';
import { blobStream, checkedBlobChunks, cloneBlobTo, copyBlobInto } from './blobCopies.js';
import { checkBlobWhole } from './checkBlobWhole.js';
import { readStoredForm, type StoredForm } from './storedForm.js';
import { hashBlob } from './hashBlob.js';
import { dropTemp, hasBlob, holdsAnyBlob, newLooseTemp, openBlobTemp, placeBlobFile, removeBlob } from './blobFiles.js';
import { storeBytes, storeCompressedForm, writeAll, writeBlobFile, type HashSet, type StoredBytes } from './storeBytes.js';
import { sweepTemps } from './sweepTemps.js';
import { fileRegularFile, type FileOptions, type FileOutcome } from './fileIntoStore.js';
import { blobsDirOf, type BlobForm } from './storeLayout.js';
import type { PlaceStats } from './placeBlob.js';

// One project's blob store, as its one owner of stored bytes (a repository owning its blobs'
// loads and saves): every read (whole, streamed, checked before streaming), every write (whole
// bytes; streamed bytes whose hash is known first, or learned while they are written), whether a
// blob is held, its removal, and the damage readers find, told to this store's listeners. The
// forms a blob is kept in (raw, compressed, chunked: storeLayout.ts) stay behind it. Code outside
// store/ holds a BlobStore (a ProjectStore's `blobs`), never the folder it lives in; a worker
// thread opens its own over the same store folder (`BlobStore.of`), and relays the damage it finds.

export class BlobStore implements BlobPlace {
  readonly #damage = new DamageListeners();

  /** Over the blob folder `dir`; a project's is made once, by its ProjectStore (`of`). */
  constructor(readonly dir: string) {}

  /** The blob store of the history store at `storeDir` (a worker thread's, or a ProjectStore's). */
  static of(storeDir: string): BlobStore {
    return new BlobStore(blobsDirOf(storeDir));
  }

  /** Tells `listener` of every missing or corrupt blob a reader finds here; returns the unsubscribe. */
  onDamage(listener: DamageListener): () => void {
    return this.#damage.add(listener);
  }

  /** Tells this store's listeners of damage found (also by a reader on another thread). */
  noteDamage(hash: string, problem: BlobProblem): void {
    this.#damage.tell(hash, problem);
  }

  /** At most `limit` bytes from a blob's start, checked (a longer blob hashed whole once per file identity). */
  head(hash: string, limit: number, size?: number, subject?: BlobSubject): Buffer {
    return readBlobHead(this, hash, limit, size, subject);
  }

  /** A whole blob, checked, in the caller's scratch buffer (valid until its next use). */
  whole(hash: string, size: number, scratch: ReadScratch, subject?: BlobSubject): Buffer {
    return readBlobWhole(this, hash, size, scratch, subject);
  }

  /** A checked stream; a blob longer than one piece may end in the error after bytes went out. */
  stream(hash: string, size?: number, subject?: BlobSubject): Readable {
    return blobStream(this, hash, size, subject);
  }

  /** Reads and checks every byte, handing none on: before a stream that cannot take bytes back (`show`). */
  checkWhole(hash: string, size: number, subject?: BlobSubject): void {
    checkBlobWhole(this, hash, size, subject);
  }

  /** Fresh pieces of at most `chunk` bytes; the last is followed by BLOB_CORRUPT when the whole does not match. */
  pieces(hash: string, size: number, chunk: number, subject?: BlobSubject): Generator<Buffer> {
    return checkedBlobChunks(this, hash, size, chunk, subject);
  }

  /** Copies a blob into an open file through `buffer`; answers the bytes copied (BLOB_CORRUPT after a bad copy). */
  copyInto(hash: string, out: number, buffer: Buffer, size?: number, subject?: BlobSubject): number {
    return copyBlobInto(this, hash, out, buffer, size, subject);
  }

  /** Copies a blob to a new file at `target` (a clone where the file system can), then checks it. */
  cloneTo(hash: string, target: FsPath, size?: number, subject?: BlobSubject): void {
    cloneBlobTo(this, hash, target, size, subject);
  }

  /** A blob as it is kept: a compressed file's bytes, or `raw` (read it through the readers above). */
  storedForm(hash: string, size: number, options: { inflate?: boolean; subject?: BlobSubject } = {}): StoredForm {
    return readStoredForm(this, hash, size, options);
  }

  /** The hash of a blob's raw bytes as they are now; undefined when it is missing, '' when it cannot be read as any. */
  hashNow(hash: string): Promise<string | undefined> {
    return hashBlob(this, hash);
  }

  /** Files bytes in memory under their hash (compressed when that pays); a blob held already is kept unless `rewrite` names it. */
  put(bytes: Uint8Array, options: { counters?: PlaceStats; exactCreateMode?: boolean; rewrite?: HashSet; known?: Set<string> } = {}): StoredBytes {
    return storeBytes(bytes, this.dir, options.counters, options.exactCreateMode, options.rewrite, options.known);
  }

  /** Files a blob that came compressed (checked already), as it came where this store keeps that size compressed. */
  putCompressedForm(raw: Buffer, stored: Buffer): StoredBytes {
    return storeCompressedForm(raw, stored, this.dir);
  }

  /** Writes a blob's file in `form` from bytes already checked against `hash` (temp, 0600, rename). */
  write(hash: string, bytes: Uint8Array, form: BlobForm, options: { counters?: PlaceStats; replacing?: boolean; beforeRename?: () => void } = {}): void {
    writeBlobFile(this.dir, hash, bytes, form, options);
  }

  /**
   * Files a file of the folder as it is read, its hash learned while it is written (small: read
   * once; large: chunked, or a clone): as a copy worker files it, here on the calling thread.
   */
  putFile(absPath: FsPath, options: FileOptions): FileOutcome {
    return fileRegularFile(absPath, this.dir, options);
  }

  /** A streamed write of a blob whose hash is known before its bytes (an import's long blob). */
  openWrite(hash: string): BlobWrite {
    const { temp, fd } = openBlobTemp(this.dir, hash);
    return new BlobWrite(this.dir, temp, fd);
  }

  /**
   * A private empty file for bytes whose hash is learned while they are written (a download);
   * `placeLearned` places it once its bytes hashed to the name expected. Swept like any temp if left.
   */
  newLooseFile(): string {
    return newLooseTemp(this.dir);
  }

  /** Hashes a file from `newLooseFile` and renames it into place when it is `hash`'s bytes; removes it and answers false when not. */
  async placeLearned(hash: string, file: string): Promise<boolean> {
    const digest = createHash('sha256');
    for await (const chunk of createReadStream(file)) digest.update(chunk as Buffer);
    if (digest.digest('hex') !== hash) {
      rmSync(file, { force: true });
      return false;
    }
    placeBlobFile(file, this.dir, hash, 'raw');
    return true;
  }

  /** A file holds the blob, in any form (its bytes are not checked: the readers do that). */
  has(hash: string): boolean {
    return hasBlob(this.dir, hash);
  }

  /** Removes a blob's file whichever form it is in (a list only: its chunks are blobs of their own). */
  remove(hash: string): void {
    removeBlob(this.dir, hash);
  }

  /** Any blob file is in the store. */
  holdsAny(): boolean {
    return holdsAnyBlob(this.dir);
  }

  /** Makes the blob folder (private), or makes one an earlier Hindsight made under the umask private. */
  makeFolder(): void {
    makePrivateDir(this.dir);
    tightenDir(this.dir);
  }

  /** Removes every blob and temp: a first copy that keeps nothing after a refusal (the index names no blob yet). */
  empty(): void {
    rmSync(this.dir, { recursive: true, force: true });
    makePrivateDir(this.dir);
  }

  /** Removes the temps of writes that never finished; answers how many. */
  sweepTemps(): number {
    return sweepTemps(this.dir);
  }
}

/** A blob being written as its bytes come, its hash known: placed once they are checked, or dropped. */
export class BlobWrite {
  constructor(
    private readonly dir: string,
    private readonly temp: string,
    readonly fd: number,
  ) {}

  write(bytes: Uint8Array): void {
    writeAll(this.fd, bytes);
  }

  /** Closes the file (after a failed write: then `drop`). */
  close(): void {
    closeSync(this.fd);
  }

  /** Renames the closed file into place as `hash` in `form`; `replacing` removes the other forms' files after. */
  place(hash: string, form: BlobForm, replacing = false): void {
    placeBlobFile(this.temp, this.dir, hash, form, undefined, replacing);
  }

  /** Removes the file that will not be placed; its absence is fine. */
  drop(): void {
    dropTemp(this.temp);
  }
}
