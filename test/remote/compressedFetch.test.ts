import { expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, gunzipSync, zstdCompressSync } from 'node:zlib';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { seededBytes, sha256 } from '../helpers/writeTree.js';
import { blobPath, compressedBlobPath } from '../../electron/history/store/storeLayout.js';
import type { PackEntry } from '../../electron/history/remoteLayout/packFormat.js';
import type { PushResult } from '../../electron/history/remote/push/pushProject.js';
import { describeWithSwift, storeFor, swiftEnv } from './swiftTestKit.js';
import { pushSetup } from './remoteCli.js';
import type { ProvidedSwift } from './swiftSetup.js';

// A blob the local store keeps compressed is pushed as it is kept (a pack entry of encoding zstd:
// the store's compressed form), and a clone or a fetch on first need keeps such an entry as its
// own compressed form: nothing is compressed again on either side (trace counters
// store.compressions, remote.packCompressions). Raw blobs are packed as before (Brotli), and
// those entries still fetch. Damage in a zstd entry on the server (a flipped byte, a cut, a bomb)
// is refused with REMOTE_CORRUPT, nothing written.

const text = (n: number) => Array.from({ length: 300 }, (_, i) => `version ${n}, line ${i}: the same words again\n`).join('');
const SMALL = 'a small file, kept raw here and packed with Brotli as before\n'.repeat(3);
const NOISE = seededBytes(31, 20_000);
/** 60 KB of text (under the 64 KiB a file is filed whole up to) that compresses to about half: room in its entry for a bomb. */
const HEX = seededBytes(32, 30_000).toString('hex');

function lastTrace(file: string): Record<string, number> {
  return JSON.parse(readFileSync(file, 'utf8').trim().split('\n').at(-1)!) as Record<string, number>;
}

function storeBlobs(dataDir: string): string {
  const [store] = readdirSync(join(dataDir, 'projects'));
  return join(dataDir, 'projects', store!, 'blobs');
}

async function secondMachine(swift: ProvidedSwift, bucket: string): Promise<NodeJS.ProcessEnv> {
  const env = { ...swiftEnv(swift), HINDSIGHT_DATA_DIR: tempDir('hindsight-data-') };
  await cliJson(['remote', 'add', 'origin', `s3://${bucket}/team/hs`, '--endpoint', swift.endpoint, '--region', swift.region, '--path-style'], env);
  return env;
}

/** The packs the push's index lists, with their entries. */
async function pushedPacks(swift: ProvidedSwift, bucket: string, pushed: PushResult): Promise<{ key: string; entries: PackEntry[] }[]> {
  const store = storeFor(swift, bucket, { location: { bucket, prefix: 'team/hs' } });
  try {
    const head = JSON.parse((await store.get(`projects/${pushed.projectId}/heads/${pushed.machine}.json`)).toString('utf8'));
    const index = JSON.parse(gunzipSync(await store.get(head.indexes.at(-1))).toString('utf8'));
    return (index.packs as { pack: string; blobs: PackEntry[] }[]).map((p) => ({ key: `projects/${pushed.projectId}/packs/${p.pack}`, entries: p.blobs }));
  } finally {
    store.close();
  }
}

/**
 * The pack with the zstd entry at offset..offset+length holding the entry's own header (the blob's
 * size), then `frame`, then a skippable zstd frame padding it to the entry's length.
 */
function withFrame(pack: Buffer, offset: number, length: number, frame: Buffer): Buffer {
  const padding = Buffer.alloc(length - 12 - frame.length);
  padding.writeUInt32LE(0x184d2a50, 0);
  padding.writeUInt32LE(padding.length - 8, 4);
  return Buffer.concat([pack.subarray(0, offset + 12), frame, padding, pack.subarray(offset + length)]);
}

describeWithSwift('compressed blobs and a remote', (swift) => {
  it('are pushed as they are kept and kept so by a clone, also when fetched on first need: nothing compressed again', async () => {
    const { root, env, bucket, dataDir } = await pushSetup(swift, { 'notes.txt': text(1), 'small.txt': SMALL, 'noise.bin': NOISE });
    const sourceBlobs = storeBlobs(dataDir);
    expect(existsSync(compressedBlobPath(sourceBlobs, sha256(text(1))))).toBe(true);
    writeFileSync(join(root, 'notes.txt'), text(2));
    await cliJson(['checkpoint', root, 'edit'], env);
    const pushTrace = join(tempDir('hindsight-trace-'), 'trace.jsonl');
    const pushed = await cliJson<PushResult>(['push', root], { ...env, HINDSIGHT_TRACE: pushTrace });
    expect(pushed).toMatchObject({ blobs: 4 });

    // The two compressed blobs: inflated once each on the pack workers to check them, compressed by nobody.
    const pushCounts = lastTrace(pushTrace);
    expect(pushCounts['push.workerBlobs']).toBe(4);
    expect(pushCounts['store.compressions'] ?? 0).toBe(0);
    expect(pushCounts['store.decompressions']).toBe(2);
    // Only the raw ones are compressed for the pack (small.txt and the noise), as before.
    expect(pushCounts['remote.packCompressions']).toBe(2);

    const [pack] = await pushedPacks(swift, bucket, pushed);
    const encodings = Object.fromEntries(pack!.entries.map((e) => [e[0], e[4]]));
    expect(encodings).toEqual({ [sha256(text(1))]: 'zstd', [sha256(text(2))]: 'zstd', [sha256(SMALL)]: 'brotli', [sha256(NOISE)]: 'raw' });
    const store = storeFor(swift, bucket, { location: { bucket, prefix: 'team/hs' } });
    try {
      const body = await store.get(pack!.key);
      for (const [hash, offset, length, , encoding] of pack!.entries) {
        if (encoding !== 'zstd') continue;
        expect(body.subarray(offset, offset + length).equals(readFileSync(compressedBlobPath(sourceBlobs, hash)))).toBe(true);
      }
    } finally {
      store.close();
    }

    const env2 = await secondMachine(swift, bucket);
    const into = join(tempDir(), 'clone');
    const cloneTrace = join(tempDir('hindsight-trace-'), 'trace.jsonl');
    await cliJson(['clone', '--remote', 'origin', '--project', pushed.projectId, '--into', into], { ...env2, HINDSIGHT_TRACE: cloneTrace });
    const blobsDir = storeBlobs(env2.HINDSIGHT_DATA_DIR!);
    expect(readFileSync(compressedBlobPath(blobsDir, sha256(text(2)))).equals(readFileSync(compressedBlobPath(sourceBlobs, sha256(text(2)))))).toBe(true);
    // The noise came raw (a Brotli or raw entry is filed as any raw blob arriving is: compression tried); the zstd entry was not compressed again.
    expect(lastTrace(cloneTrace)['store.compressions']).toBe(1);
    expect(readFileSync(join(into, 'notes.txt'), 'utf8')).toBe(text(2));
    expect(readFileSync(join(into, 'small.txt'), 'utf8')).toBe(SMALL);
    expect(readFileSync(join(into, 'noise.bin')).equals(NOISE)).toBe(true);

    const versions = await cliJson<{ versionId: number; hash: string }[]>(['log', into, 'notes.txt'], env2);
    const showTrace = join(tempDir('hindsight-trace-'), 'trace.jsonl');
    const shown = await runCli(['show', into, 'notes.txt', '--version', String(versions[0]!.versionId)], { ...env2, HINDSIGHT_TRACE: showTrace });
    expect(shown.stdout.toString('utf8')).toBe(text(1));
    expect(lastTrace(showTrace)['store.compressions'] ?? 0).toBe(0);
    expect(readFileSync(compressedBlobPath(blobsDir, sha256(text(1)))).equals(readFileSync(compressedBlobPath(sourceBlobs, sha256(text(1)))))).toBe(true);
    expect(existsSync(blobPath(blobsDir, sha256(text(1))))).toBe(false);
    expect((await runCli(['verify', into], env2)).code).toBe(0);
  });

  it('refuses a zstd entry damaged on the server (a flipped byte, a cut, a bomb) with REMOTE_CORRUPT, writing nothing', async () => {
    const { root, env, bucket } = await pushSetup(swift, { 'hex.txt': HEX, 'small.txt': SMALL });
    const pushed = await cliJson<PushResult>(['push', root], env);
    const [pack] = await pushedPacks(swift, bucket, pushed);
    const entry = pack!.entries.find((e) => e[0] === sha256(HEX))!;
    expect(entry[4]).toBe('zstd');
    const [, offset, length] = entry;
    const store = storeFor(swift, bucket, { location: { bucket, prefix: 'team/hs' } });
    const good = await store.get(pack!.key);
    const stored = good.subarray(offset, offset + length);

    const flipped = Buffer.from(good);
    flipped[offset + length - 100]! ^= 0x40;
    // The header records the blob's own size; the frame inflates to 256 MiB of zeros, and a
    // skippable frame pads it to the entry's length: refused once it passes the size.
    const bomb = withFrame(good, offset, length, zstdCompressSync(Buffer.alloc(256 * 1024 * 1024), { params: { [constants.ZSTD_c_compressionLevel]: 19 } }));
    // The frame cut in half, padded the same way: the form is cut off inside an intact pack.
    const cutForm = withFrame(good, offset, length, stored.subarray(12, 12 + (length - 12) / 2));
    const named = `The remote copy of ${sha256(HEX).slice(0, 12)}… is damaged (`;
    const cases: { name: string; body: Buffer; says: string[] }[] = [
      { name: 'a flipped byte', body: flipped, says: [named, 'its bytes do not match their hash', 'nothing was written from it'] },
      { name: 'a cut form', body: cutForm, says: [named, 'it does not decompress', 'nothing was written from it'] },
      { name: 'a bomb', body: bomb, says: [named, `inflates past its recorded ${HEX.length} bytes`, 'nothing was written from it'] },
      // The object itself cut short: the range read is refused (REMOTE_CORRUPT) before the entry is looked at.
      { name: 'a cut pack', body: good.subarray(0, offset + length / 2), says: [`bytes of ${pack!.key} where`, 'were asked for'] },
    ];
    try {
      for (const { name, body, says } of cases) {
        await store.put(pack!.key, body);
        const env2 = await secondMachine(swift, bucket);
        const into = join(tempDir(), 'clone');
        const failed = await runCli(['clone', '--remote', 'origin', '--project', pushed.projectId, '--into', into], env2);
        expect(failed.code, name).not.toBe(0);
        // REMOTE_CORRUPT's one line (packFormat.ts blobCorrupt, naming the blob; s3ObjectStore.ts for a short read).
        for (const said of says) expect(failed.stderr, name).toContain(said);
        expect(existsSync(into), name).toBe(false);
        expect(existsSync(join(env2.HINDSIGHT_DATA_DIR!, 'projects')) ? readdirSync(join(env2.HINDSIGHT_DATA_DIR!, 'projects')) : [], name).toEqual([]);
      }
      // The same pack intact again: the clone goes through, so each refusal was the damage's.
      await store.put(pack!.key, good);
      const env2 = await secondMachine(swift, bucket);
      const into = join(tempDir(), 'clone');
      await cliJson(['clone', '--remote', 'origin', '--project', pushed.projectId, '--into', into], env2);
      expect(readFileSync(join(into, 'hex.txt'), 'utf8')).toBe(HEX);
    } finally {
      store.close();
    }
  });
});
