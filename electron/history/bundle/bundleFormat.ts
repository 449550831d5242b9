import { z } from 'zod';
import { HindsightError } from '../../../shared/errors.js';
import { recordedSnapshotSchema, versionSchema } from '../remote/layout/recordFormat.js';

// The bundle: a project's history (or the part of it after a snapshot) as one stream that checks
// itself (docs/BUNDLE.md). A first line naming the format and its version, then framed records:
//
//   'H' header   u32 length, JSON   once, first
//   'S' snapshots u32 length, JSON  snapshots with their versions, oldest first
//   'M' modes    u32 length, JSON   folder-mode rows
//   'P' pins     u32 length, JSON   the pinned snapshots and versions among those carried (version 2)
//   'B' blob     32 bytes SHA-256, u64 size, the bytes    each blob once, by hash
//   'E' end      u32 length, JSON   counts and the SHA-256 of every byte before the 'E'
//
// The row shapes are the remote tier's (remote/layout/recordFormat.ts): a snapshot is known by
// the id it has where it was recorded (`origin`), each version carries its id too.

export const FORMAT_NAME = 'hindsight-bundle';
export const FORMAT_VERSION = 2;
/** Versions this Hindsight reads: 1 carried no pins (an import pins the checkpoints a person made). */
export const READABLE_VERSIONS: readonly number[] = [1, 2];
/** The first line: `head -1` says what the file is. */
export const MAGIC = Buffer.from(`${FORMAT_NAME} ${FORMAT_VERSION}\n`, 'ascii');

export const KIND = { header: 0x48, snapshots: 0x53, modes: 0x4d, pins: 0x50, blob: 0x42, end: 0x45 } as const;

/** A JSON record's largest allowed length: a damaged length field never makes us allocate gigabytes. */
export const MAX_JSON_RECORD = 64 * 1024 * 1024;
/** Snapshot records are cut at about this many versions, so neither side holds one huge JSON text. */
export const VERSIONS_PER_RECORD = 20_000;
export const BLOB_HEAD = 1 + 32 + 8;

const HASH = z.string().regex(/^[0-9a-f]{64}$/);
const count = z.number().int().nonnegative();

export const headerSchema = z.strictObject({
  format: z.literal(FORMAT_NAME),
  version: z.union([z.literal(1), z.literal(FORMAT_VERSION)]),
  /** The history's id (the projectId it was first recorded under). */
  projectId: z.string().regex(/^[0-9a-f]{32}$/),
  name: z.string(),
  /** The folder it was recorded at, on the exporting machine. */
  root: z.string(),
  /** The snapshots it carries: ids first..last (null when it carries none). */
  snapshots: z.strictObject({ first: z.number().int().positive().nullable(), last: z.number().int().positive().nullable(), count }),
  /** --since: the snapshot the receiver must already hold, and the blobs it must hold ([hash, size]). */
  since: z.strictObject({ snapshotId: z.number().int().positive(), at: count, kind: z.string() }).nullable(),
  requires: z.array(z.tuple([HASH, count])),
  counts: z.strictObject({ versions: count, folderModes: count, pins: count.optional(), blobs: count, bytes: count }),
});

export const bundleVersionSchema = versionSchema.extend({ versionId: z.number().int().positive() });
export const bundleSnapshotSchema = recordedSnapshotSchema.extend({ versions: z.array(bundleVersionSchema) });
export const snapshotsRecordSchema = z.array(bundleSnapshotSchema);
/** [path, snapshot id, mode]. */
export const modesRecordSchema = z.array(z.tuple([z.string().min(1), z.number().int().positive(), z.number().int().min(0).max(0o7777)]));

/** [id, the time it was pinned]. */
const pinRows = z.array(z.tuple([z.number().int().positive(), count]));
/** The pins of the carried snapshots, and of the carried versions. */
export const pinsRecordSchema = z.strictObject({ snapshots: pinRows, versions: pinRows });

export const endSchema = z.strictObject({
  snapshots: count,
  versions: count,
  folderModes: count,
  /** Pin rows carried (format 2). */
  pins: count.optional(),
  blobs: count,
  bytes: count,
  /** SHA-256 of every byte of the stream before the 'E' record. */
  sha256: HASH,
});

export type BundleHeader = z.infer<typeof headerSchema>;
export type BundleSnapshot = z.infer<typeof bundleSnapshotSchema>;
export type BundleVersion = z.infer<typeof bundleVersionSchema>;
export type FolderModeRow = z.infer<typeof modesRecordSchema>[number];
export type BundlePins = z.infer<typeof pinsRecordSchema>;
export type BundleEnd = z.infer<typeof endSchema>;

/** A JSON record: kind, u32 length, the text. */
export function jsonRecord(kind: number, value: unknown): Buffer {
  const text = Buffer.from(JSON.stringify(value), 'utf8');
  const head = Buffer.allocUnsafe(5);
  head[0] = kind;
  head.writeUInt32BE(text.length, 1);
  return Buffer.concat([head, text]);
}

/** A blob record's head: kind, hash, size (the bytes follow). */
export function blobHead(hash: string, size: number): Buffer {
  const head = Buffer.allocUnsafe(BLOB_HEAD);
  head[0] = KIND.blob;
  Buffer.from(hash, 'hex').copy(head, 1);
  head.writeBigUInt64BE(BigInt(size), 33);
  return head;
}

export function bundleCorrupt(why: string, details: Record<string, unknown> = {}): HindsightError {
  return new HindsightError('BUNDLE_CORRUPT', `The bundle is damaged or cut off: ${why}. Nothing was imported from it.`, details);
}
