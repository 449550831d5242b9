import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { deflateRawSync, gunzipSync } from 'node:zlib';
import { carriedForm, PackBuilder, readPackTrailer, sha256, unpackBlob, type PackEntry } from '../../../electron/history/remoteLayout/packFormat.js';
import { compressBlob } from '../../../electron/history/codec/blobCodec.js';
import { decodeIndex, encodeIndex } from '../../../electron/history/remoteLayout/indexFormat.js';
import { decodeRecord, encodeRecord } from '../../../electron/history/remoteLayout/recordFormat.js';
import { encodeGzipJson } from '../../../electron/history/remoteLayout/jsonObject.js';
import { hashOfKey, indexKey, packKey, recordKey } from '../../../electron/history/remoteLayout/remoteKeys.js';
import { planFetch } from '../../../electron/history/remote/fetch/fetchPlan.js';
import { parseRemoteUrl } from '../../../electron/history/config/remoteUrl.js';
import { codeOf } from '../../helpers/errorCode.js';

const PROJECT = '0123456789abcdef0123456789abcdef';
const MACHINE = '6a0f5c2e-1b7d-4c1e-9f3a-2d4e5f607182';

describe('packs', () => {
  const text = Buffer.from('const value = store.index(path);\n'.repeat(300));
  const noise = randomBytes(5000);
  const empty = Buffer.alloc(0);

  it('hold blobs compressed where that pays and raw where it does not, and give back exact bytes', () => {
    const builder = new PackBuilder();
    for (const blob of [text, noise, empty]) builder.add(sha256(blob), blob);
    const pack = builder.finish();
    expect(pack.hash).toBe(sha256(pack.body));
    expect(pack.entries.map((e) => e[4])).toEqual(['brotli', 'raw', 'raw']);
    expect(pack.entries[0]![2]).toBeLessThan(text.length / 4);
    expect(readPackTrailer(pack.body)).toEqual(pack.entries);
    for (const [entry, blob] of pack.entries.map((e, i) => [e, [text, noise, empty][i]!] as const)) {
      expect(unpackBlob(pack.body.subarray(entry[1], entry[1] + entry[2]), entry)).toEqual(blob);
    }
  });

  it('still read blobs deflated by packs written before Brotli', () => {
    const stored = deflateRawSync(text, { level: 1 });
    const entry: PackEntry = [sha256(text), 0, stored.length, text.length, 'deflate'];
    expect(unpackBlob(stored, entry)).toEqual(text);
    expect(codeOf(() => unpackBlob(stored, [...entry.slice(0, 4), 'brotli'] as PackEntry))).toBe('REMOTE_CORRUPT');
  });

  it('refuse a blob whose stored bytes were damaged, compressed or raw', () => {
    const builder = new PackBuilder();
    builder.add(sha256(text), text);
    builder.add(sha256(noise), noise);
    const pack = builder.finish();
    for (const entry of pack.entries) {
      const stored = Buffer.from(pack.body.subarray(entry[1], entry[1] + entry[2]));
      stored[stored.length >> 1]! ^= 0x40;
      expect(codeOf(() => unpackBlob(stored, entry))).toBe('REMOTE_CORRUPT');
      expect(codeOf(() => unpackBlob(stored.subarray(1), entry))).toBe('REMOTE_CORRUPT');
    }
    expect(codeOf(() => readPackTrailer(pack.body.subarray(0, pack.body.length - 1)))).toBe('REMOTE_CORRUPT');
  });

  it("carry a blob in the store's compressed form (zstd) beside the older encodings, refusing one that does not inflate to its name", () => {
    const kept = compressBlob(text)!;
    const builder = new PackBuilder();
    builder.add(sha256(noise), noise);
    builder.addStored(sha256(text), carriedForm(kept), text.length);
    const pack = builder.finish();
    expect(readPackTrailer(pack.body).map((e) => e[4])).toEqual(['raw', 'zstd']);
    const entry = pack.entries[1]!;
    const stored = pack.body.subarray(entry[1], entry[1] + entry[2]);
    expect(stored.equals(kept)).toBe(true);
    expect(unpackBlob(stored, entry)).toEqual(text);
    // Another blob's form under this name, or a header recording another size.
    expect(codeOf(() => unpackBlob(stored, [sha256(noise), 0, stored.length, text.length, 'zstd']))).toBe('REMOTE_CORRUPT');
    expect(codeOf(() => unpackBlob(stored, [entry[0], 0, stored.length, text.length - 1, 'zstd']))).toBe('REMOTE_CORRUPT');
  });

  it('read a pack and its index holding an encoding of a newer build, refusing only that blob, typed', () => {
    const builder = new PackBuilder();
    builder.add(sha256(text), text);
    const pack = builder.finish();
    const newer: PackEntry = [sha256(noise), pack.entries[0]![2], 10, noise.length, 'lz9' as PackEntry[4]];
    const trailer = Buffer.from(JSON.stringify({ format: 1, blobs: [...pack.entries, newer] }));
    const footer = Buffer.alloc(8);
    footer.writeUInt32BE(trailer.length, 0);
    footer.write('HSP1', 4, 'latin1');
    const body = Buffer.concat([pack.body.subarray(0, pack.entries[0]![2]), Buffer.alloc(10), trailer, footer]);
    const entries = readPackTrailer(body);
    expect(entries.map((e) => e[4])).toEqual(['brotli', 'unknown']);
    expect(unpackBlob(body.subarray(0, entries[0]![2]), entries[0]!)).toEqual(text);
    expect(codeOf(() => unpackBlob(Buffer.alloc(10), entries[1]!))).toBe('REMOTE_FAILED');
    const index = encodeIndex([{ pack: pack.hash, size: body.length, blobs: [...pack.entries, newer] }], []);
    expect(decodeIndex(index.body, index.hash).packs[0]!.blobs.map((e) => e[4])).toEqual(['brotli', 'unknown']);
  });
});

describe('metadata objects', () => {
  it('round-trip and are refused when their bytes do not match the hash in their name', () => {
    const index = encodeIndex([{ pack: 'a'.repeat(64), size: 10, blobs: [['b'.repeat(64), 0, 10, 10, 'raw']] }], [['c'.repeat(64), 9_000_000]]);
    expect(decodeIndex(index.body, index.hash).standalone).toEqual([['c'.repeat(64), 9_000_000]]);
    const damaged = Buffer.from(index.body);
    damaged[damaged.length - 5]! ^= 1;
    expect(codeOf(() => decodeIndex(damaged, index.hash))).toBe('REMOTE_CORRUPT');

    const snapshot = {
      idOnMachine: 1,
      kind: 'baseline' as const,
      at: 5,
      label: null,
      branch: null,
      head: null,
      versions: [{ path: 'a/b.txt', hash: 'd'.repeat(64), mode: 0o644, size: 3, type: 'file' as const, target: null }],
    };
    const record = encodeRecord(MACHINE, [snapshot]);
    expect(decodeRecord(record.body, record.hash).snapshots).toEqual([snapshot]);
    // On the wire the snapshot's id on its machine is `origin`, first, as every record already written has it.
    const wire = JSON.parse(gunzipSync(record.body).toString('utf8')) as { snapshots: Record<string, unknown>[] };
    expect(Object.keys(wire.snapshots[0]!)).toEqual(['origin', 'kind', 'at', 'label', 'branch', 'head', 'versions']);
    expect(wire.snapshots[0]!.origin).toBe(1);
    expect(codeOf(() => decodeRecord(record.body, index.hash))).toBe('REMOTE_CORRUPT');
  });

  it('refuse a record naming a path outside the project, even with a matching hash', () => {
    for (const path of ['../escape', '/etc/passwd', 'a/../../b', '']) {
      const bad = encodeGzipJson({
        format: 1,
        machine: MACHINE,
        snapshots: [
          {
            origin: 1,
            kind: 'change',
            at: 1,
            label: null,
            branch: null,
            head: null,
            versions: [{ path, hash: null, mode: 0, size: 0, type: null, target: null }],
          },
        ],
      });
      expect(
        codeOf(() => decodeRecord(bad.body, bad.hash)),
        path,
      ).toBe('REMOTE_CORRUPT');
    }
  });

  it('keys carry their hash and are checked against this project and shape', () => {
    const h = 'e'.repeat(64);
    expect(hashOfKey(PROJECT, 'pack', packKey(PROJECT, h))).toBe(h);
    expect(hashOfKey(PROJECT, 'index', indexKey(PROJECT, h))).toBe(h);
    expect(hashOfKey(PROJECT, 'record', recordKey(PROJECT, MACHINE, 1, 12, h))).toBe(h);
    expect(recordKey(PROJECT, MACHINE, 1, 12, h)).toContain('/0000000001-0000000012-');
    expect(codeOf(() => hashOfKey(PROJECT, 'pack', packKey('f'.repeat(32), h)))).toBe('REMOTE_CORRUPT');
    expect(codeOf(() => hashOfKey(PROJECT, 'index', `projects/${PROJECT}/index/../../x.json.gz`))).toBe('REMOTE_CORRUPT');
  });
});

describe('fetch plans', () => {
  it('join neighbouring blobs of a pack into one range and keep far ones apart', () => {
    const loc = (offset: number, length: number) => ({
      pack: 'p'.repeat(64),
      entry: [sha256(Buffer.from(String(offset))), offset, length, length, 'raw'] as [string, number, number, number, 'raw'],
    });
    const plan = planFetch([
      ['x', loc(0, 100)],
      ['y', loc(100, 50)],
      ['z', loc(10 * 1024 * 1024, 10)],
      ['w', { alone: 'w', size: 9 }],
    ]);
    expect(plan.map((r) => (r.kind === 'range' ? [r.offset, r.length, r.entries.length] : [r.hash]))).toEqual([['w'], [0, 150, 2], [10 * 1024 * 1024, 10, 1]]);
  });
});

describe('remote addresses', () => {
  it('take s3://bucket/prefix and refuse what S3 would not', () => {
    expect(parseRemoteUrl('s3://my-bucket/team/proj/')).toEqual({ bucket: 'my-bucket', prefix: 'team/proj' });
    expect(parseRemoteUrl('s3://my-bucket')).toEqual({ bucket: 'my-bucket', prefix: '' });
    for (const bad of ['http://x/y', 's3://', 's3://UPPER', 's3://a', 's3://ok-bucket/../x', 's3://10.0.0.1/x']) {
      expect(
        codeOf(() => parseRemoteUrl(bad)),
        bad,
      ).toBe('REMOTE_URL_INVALID');
    }
  });
});
