import { HindsightError } from '../../../shared/errors.js';

// What a reader tells of a blob it could not use: the one typed error (BLOB_MISSING or
// BLOB_CORRUPT, naming the version when the reader knows it, and the hash), and the damage told
// to the store's listeners first, so an open store marks the blob and the next copy of the right
// bytes rewrites it instead of trusting its name. The listeners are the BlobStore's (blobStore.ts):
// every reader reads through a place that knows whom to tell.

export type BlobProblem = 'missing' | 'corrupt';

/** The version whose bytes are being read, for the error's message. */
export interface BlobSubject {
  path: string;
  versionId?: number | null;
}

export type DamageListener = (hash: string, problem: BlobProblem) => void;

/** Where blobs are read: the blob folder, and whom to tell of damage found there (a BlobStore). */
export interface BlobPlace {
  readonly dir: string;
  noteDamage(hash: string, problem: BlobProblem): void;
}

export function blobUnreadable(hash: string, problem: BlobProblem, why?: string, subject?: BlobSubject): HindsightError {
  const short = `${hash.slice(0, 12)}…`;
  const what = subject ? `The stored contents of ${subject.path}${subject.versionId ? ` (version ${subject.versionId})` : ''}` : `The stored contents ${short}`;
  const details = { hash, ...(subject ? { path: subject.path, versionId: subject.versionId ?? null } : {}) };
  return problem === 'missing'
    ? new HindsightError(
        'BLOB_MISSING',
        `${what} are missing from the history store (blob ${short}${why ? `: ${why}` : ''}); run verify --repair to look for them in the folder.`,
        details,
      )
    : new HindsightError(
        'BLOB_CORRUPT',
        `${what} are damaged (blob ${short}: ${why ?? 'its bytes no longer match its hash'}); they were not used. Run verify --repair to look for the right bytes in the folder.`,
        details,
      );
}

/** The typed error for damage found at `place`, after telling the store's listeners. */
export function damaged(place: BlobPlace, hash: string, problem: BlobProblem, why?: string, subject?: BlobSubject): HindsightError {
  place.noteDamage(hash, problem);
  return blobUnreadable(hash, problem, why, subject);
}

/** The listeners of one store: each told of every damage; one that throws keeps the others told. */
export class DamageListeners {
  readonly #listeners = new Set<DamageListener>();

  add(listener: DamageListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  tell(hash: string, problem: BlobProblem): void {
    for (const listener of this.#listeners) {
      try {
        listener(hash, problem);
      } catch {
        // Recording the damage is a help, not a condition: the reader still gets its error.
      }
    }
  }
}
