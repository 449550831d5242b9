import { appendAll } from '../../../shared/largeArrays.js';
import type { NewBlob, NewVersion, StatRow } from '../db/historyIndex.js';
import type { ChunkRef } from './chunkList.js';
import { TEXT_WORDS, packedMode, packedSize, packedStored, type PackedOutcomes } from './packedOutcomes.js';

// The files a filing's copy workers filed, held until the rows are built, in columns: a path's
// slot, and per slot its size, mode and stored bytes as numbers. The strings (hash and stamps)
// stay in the batches' packed text until they are asked for, and are then split once, in the
// order the batches came. A first copy holds every file of the folder here until its commit, so
// what each file costs here is what the main thread's garbage collector walks over and over.

export class FiledFiles {
  private readonly slots = new Map<string, number>();
  private readonly sizes: number[] = [];
  private readonly modes: number[] = [];
  /** -1: this filing placed nothing for the file (the blob was stored already). */
  private readonly storedSizes: number[] = [];
  private readonly chunks = new Map<number, ChunkRef[]>();
  private readonly texts: string[] = [];
  private textsSplit = 0;
  private readonly words: string[] = [];

  get count(): number {
    return this.sizes.length;
  }

  /** Files one filed file of a batch; its strings come with the batch's text (`addText`). */
  add(path: string, packed: PackedOutcomes, at: number, chunks: ChunkRef[] | undefined): number {
    const slot = this.sizes.length;
    this.slots.set(path, slot);
    this.sizes.push(packedSize(packed, at));
    this.modes.push(packedMode(packed, at));
    this.storedSizes.push(packedStored(packed, at));
    if (chunks) this.chunks.set(slot, chunks);
    return slot;
  }

  /** A batch's packed strings, after its files were added (in the batch's order). */
  addText(text: string): void {
    if (text !== '') this.texts.push(text);
  }

  slotOf(path: string): number | undefined {
    return this.slots.get(path);
  }

  hashOf(slot: number): string {
    return this.word(slot, 0);
  }

  /** Hashes of the slots from `from` on (those filed since a caller last looked). */
  hashesFrom(from: number): string[] {
    const hashes: string[] = [];
    for (let slot = from; slot < this.count; slot++) hashes.push(this.hashOf(slot));
    return hashes;
  }

  /** Bytes on disk of the blob the file's filing placed; undefined when it placed none. */
  storedOf(slot: number): number | undefined {
    const stored = this.storedSizes[slot]!;
    return stored < 0 ? undefined : stored;
  }

  /** The file's version row; its mode and size are the worker's own fstat's. */
  version(slot: number, path: string): NewVersion {
    return { path, hash: this.hashOf(slot), mode: this.modes[slot]!, size: this.sizes[slot]!, type: 'file' };
  }

  /** The file's stat row: the stamp of the bytes the worker filed, not the walk's earlier look. */
  stat(slot: number, path: string): StatRow {
    return {
      path,
      type: 'file',
      size: this.sizes[slot]!,
      mode: this.modes[slot]!,
      mtimeNs: this.word(slot, 1),
      ctimeNs: this.word(slot, 2),
      ino: this.word(slot, 3),
      hash: this.hashOf(slot),
    };
  }

  blob(slot: number): NewBlob {
    const stored = this.storedOf(slot);
    const chunks = this.chunks.get(slot);
    return { hash: this.hashOf(slot), size: this.sizes[slot]!, ...(stored === undefined ? {} : { storedSize: stored }), ...(chunks ? { chunks } : {}) };
  }

  /** A filed file's string: 0 its hash, 1 mtimeNs, 2 ctimeNs, 3 ino (packedOutcomes.ts's text). */
  private word(slot: number, which: number): string {
    const at = slot * TEXT_WORDS + which;
    if (at >= this.words.length) this.splitTexts();
    return this.words[at]!;
  }

  private splitTexts(): void {
    for (; this.textsSplit < this.texts.length; this.textsSplit++) appendAll(this.words, this.texts[this.textsSplit]!.split(' '));
    // Split, a batch's text is not needed again.
    this.texts.length = 0;
    this.textsSplit = 0;
  }
}
