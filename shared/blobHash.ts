// A blob is named by the SHA-256 of its bytes in lowercase hex. Every place that reads such a name
// (the store's file names, the remote's keys, records and indexes, bundles) checks it against
// this one pattern.

/** The pattern's source, for names built around it (a key, a file name with a suffix). */
export const BLOB_HASH_SOURCE = '[0-9a-f]{64}';

/** A whole string that is a blob's name. */
export const BLOB_HASH = new RegExp(`^${BLOB_HASH_SOURCE}$`);
