import { SMALL_FILE_LIMIT } from '../store/storeLayout.js';

// Groups files into the short batches a copy worker takes one slot for. A batch is small enough
// that projects opening together take turns quickly, and large enough that a message round trip
// is paid once for many small files. A large file travels alone.

export const BATCH_FILES = 32;
export const BATCH_BYTES = 1024 * 1024;

export function planBatches<T extends { size: number }>(files: readonly T[]): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const file of files) {
    if (file.size > SMALL_FILE_LIMIT) {
      batches.push([file]);
      continue;
    }
    if (current.length === BATCH_FILES || bytes + file.size > BATCH_BYTES) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(file);
    bytes += file.size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
