import { appendAll } from '../../../shared/largeArrays.js';
import type { StatStamp } from '../statStamp.js';
import type { ChunkRef } from './chunkList.js';
import { TEXT_WORDS, filedStrings, type PackedFile } from './packedOutcomes.js';

// The files a filing's copy workers filed, held until the rows are built, in columns: a path's
// slot, and per slot its size, mode and stored bytes as numbers. The strings (hash and stamps)
// stay in the batches' packed text until they are asked for, and are then split once, in the
// order the batches came. A first copy holds every file of the folder here until its commit, so
// what each file costs here is what the main thread's garbage collector walks over and over.

export interface FiledColumns {
  hash: string;
  size: number;
  mode: number;
  stamp: StatStamp;
  stored: number | undefined;
  chunks: ChunkRef[] | undefined;
}

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
  add(path: string, file: PackedFile, chunks: ChunkRef[] | undefined): number {
    const slot = this.sizes.length;
    this.slots.set(path, slot);
    this.sizes.push(file.size);
    this.modes.push(file.mode);
    this.storedSizes.push(file.stored ?? -1);
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
    return this.strings(slot).hash;
  }

  /** Hashes of the slots from `from` on (those filed since a caller last looked). */
  hashesFrom(from: number): string[] {
    const hashes: string[] = [];
    for (let slot = from; slot < this.count; slot++) hashes.push(this.hashOf(slot));
    return hashes;
  }

  columns(slot: number): FiledColumns {
    const { hash, mtimeNs, ctimeNs, ino } = this.strings(slot);
    const size = this.sizes[slot]!;
    const mode = this.modes[slot]!;
    const stored = this.storedSizes[slot]!;
    return { hash, size, mode, stamp: { size, mode, mtimeNs, ctimeNs, ino }, stored: stored < 0 ? undefined : stored, chunks: this.chunks.get(slot) };
  }

  private strings(slot: number): ReturnType<typeof filedStrings> {
    if (slot * TEXT_WORDS >= this.words.length) this.splitTexts();
    return filedStrings(this.words, slot);
  }

  private splitTexts(): void {
    for (; this.textsSplit < this.texts.length; this.textsSplit++) appendAll(this.words, this.texts[this.textsSplit]!.split(' '));
    // Split, a batch's text is not needed again.
    this.texts.length = 0;
    this.textsSplit = 0;
  }
}
