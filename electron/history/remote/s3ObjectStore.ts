import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import type { BuildMiddleware, MetadataBearer } from '@smithy/types';
import { HindsightError } from '../../../shared/errors.js';
import { count } from '../trace.js';
import type { ByteRange, ObjectStore, PutChunksOptions, StoredObject } from './objectStore.js';
import { formatRemoteUrl, type RemoteLocation } from '../config/remoteUrl.js';
import { DEFAULT_RETRY, withRetry, type RetryNotice, type RetryPolicy } from './retry.js';

// The object store over S3 (AWS S3, MinIO, Garage, R2, Ceph, OpenStack Swift's s3api). Settings
// every such server accepts: checksums only where the API requires them (Swift rejects the SDK's
// aws-chunked uploads), Content-MD5 on every write so the server checks what it received, the
// SDK's own retries off (retry.ts retries with our policy and tells the user), keep-alive sockets.

export interface S3StoreOptions {
  location: RemoteLocation;
  endpoint?: string;
  region: string;
  pathStyle: boolean;
  /** Fixed keys, or a provider; undefined: the AWS default chain (environment, profile, ...). */
  credentials?: S3ClientConfig['credentials'];
  retry?: RetryPolicy;
  onRetry?: (notice: RetryNotice) => void;
  /** Requests in flight at once. */
  maxSockets?: number;
  /** Keys per listing page (the server's own limit, usually 1000, when unset). */
  pageSize?: number;
}

/** Objects at or below this size are written with one PUT; larger ones in parts of at least this size. */
export const MULTIPART_THRESHOLD = 64 * 1024 * 1024;
const MAX_PARTS = 9000;

export class S3ObjectStore implements ObjectStore {
  readonly label: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly policy: RetryPolicy;

  constructor(private readonly options: S3StoreOptions) {
    this.bucket = options.location.bucket;
    this.prefix = options.location.prefix ? `${options.location.prefix}/` : '';
    this.policy = options.retry ?? DEFAULT_RETRY;
    this.label = `${formatRemoteUrl(options.location)}${options.endpoint ? ` at ${options.endpoint}` : ''}`;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.pathStyle,
      credentials: options.credentials,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 1,
      requestHandler: {
        connectionTimeout: 10_000,
        socketTimeout: 120_000,
        httpAgent: { keepAlive: true, maxSockets: options.maxSockets ?? 16 },
        httpsAgent: { keepAlive: true, maxSockets: options.maxSockets ?? 16 },
      },
    });
    this.client.middlewareStack.add(contentMd5ForDeletes, { step: 'build', name: 'hindsightContentMd5' });
  }

  check(signal?: AbortSignal): Promise<void> {
    return this.retry('opening the bucket', signal, async () => {
      try {
        await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: signal });
      } catch (error) {
        // HEAD answers carry no error body: a 404 here is the bucket itself missing.
        if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) {
          throw new HindsightError('REMOTE_BUCKET_MISSING', `The bucket of ${this.label} does not exist. Create it first.`, {
            remote: this.label,
          });
        }
        throw error;
      }
    });
  }

  put(key: string, body: Buffer, signal?: AbortSignal): Promise<{ etag: string }> {
    count('remote.put');
    return this.retry(`uploading ${key}`, signal, async () => {
      const result = await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: this.key(key), Body: body, ContentLength: body.length, ContentMD5: md5(body) }),
        { abortSignal: signal },
      );
      return { etag: result.ETag ?? '' };
    });
  }

  async putChunks(key: string, size: number, read: (chunk: number) => Iterable<Buffer>, options: PutChunksOptions = {}): Promise<{ etag: string }> {
    if (size <= MULTIPART_THRESHOLD) {
      // The whole reader runs (and so checks its bytes) before the one request starts.
      const pieces = [...read(size)];
      const body = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
      if (body.length !== size) throw shortSource(key, body.length, size);
      const written = await this.put(key, body, options.signal);
      options.onBytes?.(size);
      return written;
    }
    return this.putInParts(key, size, read, options);
  }

  /** A multipart upload, one part read at a time; completed only once the reader ended cleanly. */
  private async putInParts(key: string, size: number, read: (chunk: number) => Iterable<Buffer>, options: PutChunksOptions): Promise<{ etag: string }> {
    const { signal, onBytes } = options;
    const partSize = Math.max(MULTIPART_THRESHOLD, Math.ceil(size / MAX_PARTS));
    count('remote.multipart');
    const { UploadId } = await this.retry(`starting the upload of ${key}`, signal, () =>
      this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: this.key(key) }), { abortSignal: signal }),
    );
    if (!UploadId) throw new HindsightError('REMOTE_FAILED', `${this.label} started no upload for ${key}.`, { remote: this.label });
    try {
      const parts: { ETag: string; PartNumber: number }[] = [];
      let sent = 0;
      // The reader's last step (after the last part) is its check: a throw there skips the completion.
      for (const body of read(partSize)) {
        const number = parts.length + 1;
        count('remote.put');
        const { ETag } = await this.retry(`uploading part ${number} of ${key}`, signal, () =>
          this.client.send(
            new UploadPartCommand({
              Bucket: this.bucket,
              Key: this.key(key),
              UploadId,
              PartNumber: number,
              Body: body,
              ContentLength: body.length,
              ContentMD5: md5(body),
            }),
            { abortSignal: signal },
          ),
        );
        parts.push({ ETag: ETag ?? '', PartNumber: number });
        sent += body.length;
        onBytes?.(body.length);
      }
      if (sent !== size) throw shortSource(key, sent, size);
      const done = await this.retry(`finishing the upload of ${key}`, signal, () =>
        this.client.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: this.key(key), UploadId, MultipartUpload: { Parts: parts } }), {
          abortSignal: signal,
        }),
      );
      return { etag: done.ETag ?? '' };
    } catch (error) {
      // Parts of an upload never completed would be kept (and billed) by the server.
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.key(key), UploadId })).catch(() => undefined);
      throw error;
    }
  }

  get(key: string, range?: ByteRange, signal?: AbortSignal): Promise<Buffer> {
    count('remote.get');
    return this.retry(`downloading ${key}`, signal, async () => {
      const result = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.key(key),
          Range: range ? `bytes=${range.offset}-${range.offset + range.length - 1}` : undefined,
        }),
        { abortSignal: signal },
      );
      const bytes = await (result.Body as { transformToByteArray: () => Promise<Uint8Array> }).transformToByteArray();
      const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (range && body.length !== range.length) {
        throw new HindsightError('REMOTE_CORRUPT', `${this.label} returned ${body.length} bytes of ${key} where ${range.length} were asked for.`, {
          remote: this.label,
          key,
        });
      }
      return body;
    });
  }

  getToFile(key: string, file: string, signal?: AbortSignal, onBytes?: (bytes: number) => void): Promise<void> {
    count('remote.get');
    return this.retry(`downloading ${key}`, signal, async () => {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) }), { abortSignal: signal });
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          onBytes?.(chunk.length);
          callback(null, chunk);
        },
      });
      await pipeline(result.Body as Readable, counter, createWriteStream(file), { signal });
    });
  }

  head(key: string, signal?: AbortSignal): Promise<StoredObject | undefined> {
    count('remote.head');
    return this.retry(`looking up ${key}`, signal, async () => {
      try {
        const result = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(key) }), { abortSignal: signal });
        return { key, size: result.ContentLength ?? 0, etag: result.ETag ?? '' };
      } catch (error) {
        if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return undefined;
        throw error;
      }
    });
  }

  async list(prefix: string, signal?: AbortSignal): Promise<StoredObject[]> {
    const found: StoredObject[] = [];
    let token: string | undefined;
    do {
      count('remote.list');
      const page = await this.retry(`listing ${prefix || 'the remote'}`, signal, () =>
        this.client.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.key(prefix), ContinuationToken: token, MaxKeys: this.options.pageSize }),
          { abortSignal: signal },
        ),
      );
      for (const item of page.Contents ?? []) {
        if (item.Key) found.push({ key: item.Key.slice(this.prefix.length), size: item.Size ?? 0, etag: item.ETag ?? '' });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found;
  }

  async listFolders(prefix: string, signal?: AbortSignal): Promise<string[]> {
    const folders: string[] = [];
    let token: string | undefined;
    const full = this.key(prefix.endsWith('/') || prefix === '' ? prefix : `${prefix}/`);
    do {
      count('remote.list');
      const page = await this.retry(`listing ${prefix || 'the remote'}`, signal, () =>
        this.client.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: full, Delimiter: '/', ContinuationToken: token, MaxKeys: this.options.pageSize }),
          { abortSignal: signal },
        ),
      );
      for (const item of page.CommonPrefixes ?? []) {
        if (item.Prefix) folders.push(item.Prefix.slice(full.length).replace(/\/$/, ''));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return folders;
  }

  async delete(keys: string[], signal?: AbortSignal): Promise<void> {
    for (let start = 0; start < keys.length; start += 1000) {
      const batch = keys.slice(start, start + 1000);
      count('remote.delete');
      const result = await this.retry(`deleting ${batch.length} objects`, signal, () =>
        this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((k) => ({ Key: this.key(k) })), Quiet: true } }), {
          abortSignal: signal,
        }),
      );
      const failed = result.Errors?.[0];
      if (failed)
        throw new HindsightError('REMOTE_FAILED', `${this.label} did not delete ${failed.Key}: ${failed.Message ?? failed.Code}`, { remote: this.label });
    }
  }

  close(): void {
    this.client.destroy();
  }

  private key(relative: string): string {
    return `${this.prefix}${relative}`;
  }

  private retry<T>(doing: string, signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
    return withRetry(run, { label: this.label, doing, policy: this.policy, signal, onRetry: this.options.onRetry });
  }
}

function shortSource(key: string, got: number, size: number): HindsightError {
  return new HindsightError('INTERNAL', `The bytes read for ${key} were ${got}, not the ${size} announced; nothing was written.`, { key });
}

function md5(body: Buffer): string {
  return createHash('md5').update(body).digest('base64');
}

// DeleteObjects must carry Content-MD5 for Swift and for S3 servers that predate flexible
// checksums; with checksums "when required" the SDK would send a CRC32 header instead.
const contentMd5ForDeletes: BuildMiddleware<object, MetadataBearer> = (next, context) => async (args) => {
  const request = args.request as { headers?: Record<string, string>; body?: unknown };
  if (context.commandName === 'DeleteObjectsCommand' && request.headers && typeof request.body === 'string') {
    request.headers['content-md5'] = createHash('md5').update(request.body).digest('base64');
  }
  return next(args);
};
