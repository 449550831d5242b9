import { createHash } from 'node:crypto';
import { decompressBlob } from '../../electron/history/codec/blobCodec.js';

// A bundle taken apart into its records and put together again after an edit, with the end
// record's digest taken again: a hostile bundle whose damage only the consistency checks can
// tell (docs/BUNDLE.md's framing, written here independently of the exporter).

export interface BundleRecord {
  /** The record's kind letter: H, S, M, P, L, B, Z or E. */
  kind: string;
  /** A JSON record's value. */
  value?: unknown;
  /** A blob record's hash, size and bytes. */
  blob?: { hash: string; size: number; bytes: Buffer };
  /** A compressed blob record's (Z, format 4) hash, raw size and compressed form as the store keeps it. */
  compressed?: { hash: string; size: number; stored: Buffer };
}

export function bundleRecords(bundle: Buffer): { firstLine: Buffer; records: BundleRecord[] } {
  const start = bundle.indexOf(0x0a) + 1;
  const records: BundleRecord[] = [];
  for (let at = start; at < bundle.length;) {
    const kind = String.fromCharCode(bundle[at]!);
    if (kind === 'B') {
      const size = Number(bundle.readBigUInt64BE(at + 33));
      records.push({ kind, blob: { hash: bundle.subarray(at + 1, at + 33).toString('hex'), size, bytes: bundle.subarray(at + 41, at + 41 + size) } });
      at += 41 + size;
      continue;
    }
    if (kind === 'Z') {
      const length = bundle.readUInt32BE(at + 41);
      const compressed = {
        hash: bundle.subarray(at + 1, at + 33).toString('hex'),
        size: Number(bundle.readBigUInt64BE(at + 33)),
        stored: bundle.subarray(at + 45, at + 45 + length),
      };
      records.push({ kind, compressed });
      at += 45 + length;
      continue;
    }
    const length = bundle.readUInt32BE(at + 1);
    records.push({ kind, value: JSON.parse(bundle.subarray(at + 5, at + 5 + length).toString('utf8')) });
    at += 5 + length;
  }
  return { firstLine: bundle.subarray(0, start), records };
}

/** The bundle again from its records; the end record's digest is taken again over the new bytes. */
export function bundleFrom(firstLine: Buffer, records: readonly BundleRecord[]): Buffer {
  const parts: Buffer[] = [firstLine];
  for (const record of records) {
    if (record.blob) {
      const head = Buffer.alloc(41);
      head[0] = 'B'.charCodeAt(0);
      Buffer.from(record.blob.hash, 'hex').copy(head, 1);
      head.writeBigUInt64BE(BigInt(record.blob.size), 33);
      parts.push(head, record.blob.bytes);
      continue;
    }
    if (record.compressed) {
      const head = Buffer.alloc(45);
      head[0] = 'Z'.charCodeAt(0);
      Buffer.from(record.compressed.hash, 'hex').copy(head, 1);
      head.writeBigUInt64BE(BigInt(record.compressed.size), 33);
      head.writeUInt32BE(record.compressed.stored.length, 41);
      parts.push(head, record.compressed.stored);
      continue;
    }
    const value = record.kind === 'E' ? { ...(record.value as object), sha256: createHash('sha256').update(Buffer.concat(parts)).digest('hex') } : record.value;
    const text = Buffer.from(JSON.stringify(value), 'utf8');
    const head = Buffer.alloc(5);
    head[0] = record.kind.charCodeAt(0);
    head.writeUInt32BE(text.length, 1);
    parts.push(head, text);
  }
  return Buffer.concat(parts);
}

/** The bundle with its records edited in place (each JSON value may be changed by `edit`). */
export function editBundle(bundle: Buffer, edit: (records: BundleRecord[]) => void): Buffer {
  const { firstLine, records } = bundleRecords(bundle);
  edit(records);
  return bundleFrom(firstLine, records);
}

/**
 * The same history as a bundle of format 3 carried it: every blob raw ('B', a compressed record
 * inflated), version 3 in the first line and the header, the end digest taken again. Written here
 * from the framing of docs/BUNDLE.md, independently of the exporter.
 */
export function asFormat3(bundle: Buffer): Buffer {
  const { records } = bundleRecords(bundle);
  const old = records.map((record): BundleRecord => {
    if (record.compressed) {
      const { hash, size, stored } = record.compressed;
      return { kind: 'B', blob: { hash, size, bytes: decompressBlob(Buffer.from(stored), size) } };
    }
    return record.kind === 'H' ? { ...record, value: { ...(record.value as object), version: 3 } } : record;
  });
  return bundleFrom(Buffer.from('hindsight-bundle 3\n'), old);
}
