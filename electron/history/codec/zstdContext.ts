import { constants, createZstdCompress, zstdCompressSync } from 'node:zlib';
import type { ZstdCompress } from 'node:zlib';
import { count } from '../trace.js';

// One zstd compression context per thread, kept for every blob it compresses, writing into one
// output buffer the thread keeps. `zstdCompressSync` makes a native context per call and hands its
// frame back in fresh buffers (16 KiB pieces, then their concatenation): a copy worker filing a
// large file's chunks made three times each chunk's bytes in garbage, which V8 collects only once
// 64 MiB more of it is outside its heap, so every worker held about that much on top of its own
// (the first copy of 2 x 256 MiB peaked at 270 MiB RSS, 77 MiB with no compression at all). Here
// a chunk's compression allocates nothing.
//
// Node has no public call that compresses into a buffer given: the context is a ZstdCompress
// stream whose native handle is driven the way Node's own zstdCompressSync drives it
// (`_handle.writeSync` with ZSTD_e_end, the lengths left in `_writeState`). Where a Node does not
// have those, or a call does not end its frame in the room given, the blob is compressed by
// zstdCompressSync as before: same frame, only the memory differs. Trace counter
// `store.zstdContexts` counts the native contexts made, so a test sees the one context kept.

interface EngineInternals {
  _handle?: { writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void } | null;
  /** [0] the output room left, [1] the input bytes left, after a write. */
  _writeState?: Uint32Array;
  /** Public on every zlib stream (`zlib.reset()`), missing from @types/node's ZstdCompress. */
  reset(): void;
}

/** The most a frame of `length` bytes takes (zstd's ZSTD_COMPRESSBOUND). */
export function zstdBound(length: number): number {
  const small = 128 * 1024;
  return length + (length >>> 8) + (length < small ? (small - length) >>> 11 : 0);
}

export class ZstdContext {
  private engine: (ZstdCompress & EngineInternals) | undefined;
  private out: Buffer | undefined;
  /** This Node's stream lacks the calls used: every blob takes zstdCompressSync. */
  private unsupported = false;

  constructor(private readonly level: number) {}

  /**
   * One zstd frame of `raw`, after `headroom` bytes left for the caller (a header), as a view of
   * this context's buffer: valid until the next call on this thread, so the caller writes it (or
   * copies it) before compressing anything else.
   */
  compressLent(raw: Uint8Array, headroom: number): Buffer {
    const room = zstdBound(raw.length);
    const out = this.buffer(headroom + room);
    const engine = this.context();
    const handle = engine?._handle;
    const state = engine?._writeState;
    if (engine && handle && state) {
      handle.writeSync(constants.ZSTD_e_end, raw, 0, raw.length, out, headroom, room);
      // A frame ends in one call when the room is the bound and every input byte was taken; a
      // native failure destroys the stream at once (its 'error' event comes later).
      const [roomLeft = 0, inputLeft = 1] = state;
      if (!engine.destroyed && inputLeft === 0 && roomLeft > 0) {
        engine.reset();
        return out.subarray(0, headroom + room - roomLeft);
      }
      this.drop();
    }
    // Made again by the call that says why, if there is a why.
    return this.once(raw, headroom);
  }

  /** The frame made by zstdCompressSync, a native context of its own (where no kept one works). */
  private once(raw: Uint8Array, headroom: number): Buffer {
    count('store.zstdContexts');
    const frame = zstdCompressSync(raw, { params: { [constants.ZSTD_c_compressionLevel]: this.level }, pledgedSrcSize: raw.length });
    const out = this.buffer(headroom + frame.length);
    frame.copy(out, headroom);
    return out.subarray(0, headroom + frame.length);
  }

  /** The kept context, made at the first call; undefined where this Node's stream lacks the calls used. */
  private context(): (ZstdCompress & EngineInternals) | undefined {
    if (this.engine || this.unsupported) return this.engine;
    const engine = createZstdCompress({ params: { [constants.ZSTD_c_compressionLevel]: this.level } }) as ZstdCompress & EngineInternals;
    if (typeof engine._handle?.writeSync !== 'function' || !(engine._writeState instanceof Uint32Array)) {
      engine.close();
      this.unsupported = true;
      return undefined;
    }
    count('store.zstdContexts');
    // A failure is seen through `destroyed` at once; its event, which comes later, is not a crash.
    engine.on('error', () => {});
    this.engine = engine;
    return engine;
  }

  private drop(): void {
    this.engine?.close();
    this.engine = undefined;
  }

  /** The kept output buffer, grown to `length` when shorter (never shrunk: a chunk's length is bounded). */
  private buffer(length: number): Buffer {
    if (!this.out || this.out.length < length) this.out = Buffer.allocUnsafe(length);
    return this.out;
  }
}
