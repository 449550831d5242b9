import { openSync } from 'node:fs';

// Opening a file that may not be there (a blob in one of its forms, a database not made yet):
// ENOENT is an answer, not a failure; any other error is the caller's to word.

/** A descriptor open for reading, or undefined when there is no such file; other errors go through `word`. */
export function openIfPresent(file: string, word: (error: unknown) => unknown = (error) => error): number | undefined {
  try {
    return openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw word(error);
  }
}
