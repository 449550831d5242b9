import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, inject } from 'vitest';
import type { ProvidedSwift } from './swiftSetup.js';
import { S3ObjectStore, type S3StoreOptions } from '../../electron/history/remote/s3ObjectStore.js';

// What the remote suites share: the run's private Swift (started by swiftSetup.ts), a bucket of
// their own per test, stores and CLI environments that talk to it.

/** The run's Swift, or null when its packages are absent (outside CI the suites then skip). */
export function runSwift(): ProvidedSwift | null {
  return inject('swift');
}

/** describe() when Swift runs, else a skipped describe whose name says why. */
export function describeWithSwift(name: string, body: (swift: ProvidedSwift) => void): void {
  const swift = runSwift();
  if (!swift) {
    describe.skip(`${name} (SKIPPED: OpenStack Swift is not installed)`, () => {});
    return;
  }
  describe(name, () => body(swift));
}

export function adminClient(swift: ProvidedSwift): S3Client {
  return new S3Client({
    endpoint: swift.endpoint,
    region: swift.region,
    forcePathStyle: true,
    credentials: { accessKeyId: swift.accessKeyId, secretAccessKey: swift.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** A new empty bucket with a name no other test uses. */
export async function newBucket(swift: ProvidedSwift): Promise<string> {
  const bucket = `hs-${randomBytes(6).toString('hex')}`;
  const client = adminClient(swift);
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    client.destroy();
  }
  return bucket;
}

export function storeFor(swift: ProvidedSwift, bucket: string, extra: Partial<S3StoreOptions> = {}): S3ObjectStore {
  return new S3ObjectStore({
    location: { bucket, prefix: extra.location?.prefix ?? '' },
    endpoint: swift.endpoint,
    region: swift.region,
    pathStyle: true,
    credentials: { accessKeyId: swift.accessKeyId, secretAccessKey: swift.secretAccessKey },
    ...extra,
  });
}

/** Environment for a CLI child that talks to this Swift. */
export function swiftEnv(swift: ProvidedSwift): NodeJS.ProcessEnv {
  return { AWS_ACCESS_KEY_ID: swift.accessKeyId, AWS_SECRET_ACCESS_KEY: swift.secretAccessKey, AWS_REGION: swift.region };
}
