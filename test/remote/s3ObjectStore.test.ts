import { expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import { HindsightError } from '../../shared/errors.js';
import { requestsSoFar } from '../../scripts/swift/proxyAccessLog.js';
import { freePorts } from '../../scripts/swift/freePorts.js';
import { S3ObjectStore } from '../../electron/history/remote/s3ObjectStore.js';
import { BlobStore } from '../../electron/history/store/blobStore.js';
import { blobPath } from '../../electron/history/store/storeLayout.js';
import { tempDir } from '../helpers/tempDirs.js';
import { adminClient, describeWithSwift, newBucket, storeFor } from './swiftTestKit.js';

async function failure(run: () => Promise<unknown>): Promise<HindsightError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof HindsightError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describeWithSwift('the S3 object store against a real Swift', (swift) => {
  it('writes, reads whole and by range, heads, lists (paged) and deletes objects under its prefix', async () => {
    const bucket = await newBucket(swift);
    const store = storeFor(swift, bucket, { location: { bucket, prefix: 'team/one' }, pageSize: 2 });
    try {
      await store.check();
      const body = randomBytes(5000);
      await store.put('data/aa/one', body);
      await store.put('data/bb/two', Buffer.from('two'));
      await store.put('heads/m1', Buffer.from('{}'));
      expect(await store.get('data/aa/one')).toEqual(body);
      expect(await store.get('data/aa/one', { offset: 1000, length: 17 })).toEqual(body.subarray(1000, 1017));
      expect(await store.head('data/aa/one')).toMatchObject({ key: 'data/aa/one', size: 5000 });
      expect(await store.head('data/aa/none')).toBeUndefined();
      // Three objects under data/ and heads/ with two keys a page: the listing pages through.
      expect((await store.list('')).map((o) => o.key)).toEqual(['data/aa/one', 'data/bb/two', 'heads/m1']);
      expect(await store.listFolders('')).toEqual(['data', 'heads']);
      expect(await store.listFolders('data')).toEqual(['aa', 'bb']);
      const listings = (await requestsSoFar(swift, bucket)).filter((r) => r.method === 'GET' && r.path.includes('list-type=2'));
      expect(listings.length).toBeGreaterThanOrEqual(2 + 1 + 1);
      await store.delete(['data/aa/one', 'data/bb/two']);
      expect((await store.list('')).map((o) => o.key)).toEqual(['heads/m1']);
      // Everything lives under the prefix.
      const everything = storeFor(swift, bucket);
      expect((await everything.list('')).map((o) => o.key)).toEqual(['team/one/heads/m1']);
      everything.close();
    } finally {
      store.close();
    }
  });

  it('writes a large blob in parts from the checked reader and streams it back; a damaged one is never completed', async () => {
    const bucket = await newBucket(swift);
    const store = storeFor(swift, bucket);
    const dir = tempDir();
    const size = 64 * 1024 * 1024 + 12345;
    const bytes = randomBytes(size);
    const hash = createHash('sha256').update(bytes).digest('hex');
    mkdirSync(dirname(blobPath(dir, hash)), { recursive: true });
    writeFileSync(blobPath(dir, hash), bytes);
    try {
      let sent = 0;
      await store.putChunks('blobs/big', size, (chunk) => new BlobStore(dir).pieces(hash, size, chunk), { onBytes: (n) => (sent += n) });
      expect(sent).toBe(size);
      const parts = (await requestsSoFar(swift, bucket)).filter((r) => r.method === 'PUT' && r.path.includes('partNumber='));
      expect(parts.length).toBe(2);
      let received = 0;
      await store.getToFile('blobs/big', join(dir, 'back'), undefined, (n) => (received += n));
      expect(received).toBe(size);
      expect(
        createHash('sha256')
          .update(readFileSync(join(dir, 'back')))
          .digest('hex'),
      ).toBe(hash);

      // One byte flipped in the last part: both parts go up, the check after them refuses, and
      // the upload is aborted instead of completed.
      bytes[size - 10]! ^= 0x01;
      writeFileSync(blobPath(dir, hash), bytes);
      const refused = await failure(() => store.putChunks('blobs/damaged', size, (chunk) => new BlobStore(dir).pieces(hash, size, chunk)));
      expect(refused.code).toBe('BLOB_CORRUPT');
      expect(refused.message).toContain(hash.slice(0, 12));
      expect(await store.head('blobs/damaged')).toBeUndefined();
      const admin = adminClient(swift);
      const open = await admin.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
      admin.destroy();
      expect(open.Uploads ?? []).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('names wrong credentials, a missing bucket and a missing object, without retrying them', async () => {
    const bucket = await newBucket(swift);
    let retries = 0;
    const wrong = storeFor(swift, bucket, { credentials: { accessKeyId: swift.accessKeyId, secretAccessKey: 'not-the-secret' }, onRetry: () => retries++ });
    expect((await failure(() => wrong.check())).code).toBe('REMOTE_AUTH_FAILED');
    expect((await failure(() => wrong.put('x', Buffer.from('x')))).code).toBe('REMOTE_AUTH_FAILED');
    wrong.close();
    const unknown = storeFor(swift, bucket, { credentials: { accessKeyId: 'nobody:here', secretAccessKey: 'x' }, onRetry: () => retries++ });
    expect((await failure(() => unknown.list(''))).code).toBe('REMOTE_AUTH_FAILED');
    unknown.close();

    const missing = storeFor(swift, `${bucket}-missing`, { onRetry: () => retries++ });
    const checked = await failure(() => missing.check());
    expect(checked.code).toBe('REMOTE_BUCKET_MISSING');
    expect(checked.message).toContain(`${bucket}-missing`);
    expect((await failure(() => missing.put('x', Buffer.from('x')))).code).toBe('REMOTE_BUCKET_MISSING');
    missing.close();

    const store = storeFor(swift, bucket, { onRetry: () => retries++ });
    expect((await failure(() => store.get('nothing/here'))).code).toBe('REMOTE_OBJECT_MISSING');
    store.close();
    expect(retries).toBe(0);
  });

  it('retries a server that is not there with backoff, then says it cannot reach it', async () => {
    const [port] = await freePorts(1);
    const notices: number[] = [];
    const store = new S3ObjectStore({
      location: { bucket: 'anything', prefix: '' },
      endpoint: `http://127.0.0.1:${port}`,
      region: swift.region,
      pathStyle: true,
      credentials: { accessKeyId: swift.accessKeyId, secretAccessKey: swift.secretAccessKey },
      retry: { attempts: 4, baseMs: 10, maxMs: 40 },
      onRetry: (notice) => notices.push(notice.attempt),
    });
    const error = await failure(() => store.put('x', Buffer.from('x')));
    store.close();
    expect(error.code).toBe('REMOTE_UNREACHABLE');
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.details).toMatchObject({ attempts: 4 });
    expect(notices).toEqual([1, 2, 3]);
  });
});
