// What the remote engine needs from an object store, keyed relative to the remote's prefix. One
// implementation talks S3 (s3ObjectStore.ts); every failure is a HindsightError with a REMOTE_*
// code (remoteErrors.ts), already retried where retrying can help (retry.ts).

export interface StoredObject {
  key: string;
  size: number;
  etag: string;
}

export interface ByteRange {
  offset: number;
  length: number;
}

export interface PutChunksOptions {
  signal?: AbortSignal;
  onBytes?: (bytes: number) => void;
}

export interface ObjectStore {
  /** Where this store writes, for messages: `s3://bucket/prefix at https://endpoint`. */
  readonly label: string;
  /** Fails with REMOTE_BUCKET_MISSING, REMOTE_AUTH_FAILED or REMOTE_UNREACHABLE when the store cannot be used. */
  check(signal?: AbortSignal): Promise<void>;
  /** Writes a whole object; the server checks the bytes it received against their MD5. */
  put(key: string, body: Buffer, signal?: AbortSignal): Promise<{ etag: string }>;
  /**
   * Writes an object of `size` bytes, in parts when large, never holding more than one part:
   * `read(chunk)` yields the bytes in pieces of at most `chunk` bytes. The reader checks what it
   * reads (store/blobStore.ts: a blob damaged on disk throws after its last piece), and the
   * object is completed only after the reader ended without an error, so damaged bytes never
   * land on the remote under a name they do not match.
   */
  putChunks(key: string, size: number, read: (chunk: number) => Iterable<Buffer>, options?: PutChunksOptions): Promise<{ etag: string }>;
  /** An object's bytes, or one range of them; REMOTE_OBJECT_MISSING when there is no such object. */
  get(key: string, range?: ByteRange, signal?: AbortSignal): Promise<Buffer>;
  /** Streams an object into a file (large blobs), calling onBytes as bytes arrive. */
  getToFile(key: string, file: string, signal?: AbortSignal, onBytes?: (bytes: number) => void): Promise<void>;
  /** The object's size and ETag, or undefined when it does not exist. */
  head(key: string, signal?: AbortSignal): Promise<StoredObject | undefined>;
  /** Every object under a prefix (paged through), in key order. */
  list(prefix: string, signal?: AbortSignal): Promise<StoredObject[]>;
  /** The "folders" one level below a prefix (keys grouped at the next '/'). */
  listFolders(prefix: string, signal?: AbortSignal): Promise<string[]>;
  delete(keys: string[], signal?: AbortSignal): Promise<void>;
  /** Releases sockets. */
  close(): void;
}
