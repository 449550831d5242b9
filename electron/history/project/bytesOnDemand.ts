import type { ProjectStore } from './projectStore.js';

// What a reader calls before it reads blobs that only a remote may hold (a clone's older versions,
// a pull's snapshots, versions a prune moved): remote/fetch/bytesOnDemand.ts fetches them. Readers
// below the remote (restore/, versions/) are handed one as a function of this type.

/** A blob's hash as the index answers it: absent for a link or a missing row. */
export type Hashish = string | null | undefined;

/** The hashes wanted, or a function making them (called only when a remote could hold some). */
export type WantedHashes = readonly Hashish[] | (() => readonly Hashish[]);

export type BytesOnDemand = (store: ProjectStore, hashes: WantedHashes, signal?: AbortSignal) => Promise<void>;

export function isHash(hash: Hashish): hash is string {
  return typeof hash === 'string';
}
