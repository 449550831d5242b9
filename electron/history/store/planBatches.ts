import { SMALL_FILE_LIMIT } from './storeLayout.js';

// Groups files into the short batches a copy worker takes one slot for. A batch is small enough
// that projects opening together take turns quickly, and large enough that a message round trip
// is paid once for many small files. A large file travels alone. The planner takes files as the
// walk finds them, so copying starts before the walk ends.

export const BATCH_FILES = 32;
export const BATCH_BYTES = 1024 * 1024;

export class BatchPlanner<T extends { size: number }> {
  private current: T[] = [];
  private bytes = 0;

  /** Adds a file; returns the batches it completed (none, or one or two). */
  push(file: T): T[][] {
    if (file.size > SMALL_FILE_LIMIT) return [[file]];
    const done: T[][] = [];
    if (this.current.length === BATCH_FILES || this.bytes + file.size > BATCH_BYTES) done.push(this.take());
    this.current.push(file);
    this.bytes += file.size;
    return done;
  }

  /** The last, partly filled batch (if any). */
  flush(): T[][] {
    return this.current.length > 0 ? [this.take()] : [];
  }

  private take(): T[] {
    const batch = this.current;
    this.current = [];
    this.bytes = 0;
    return batch;
  }
}
