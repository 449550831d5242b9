import * as z from 'zod';
import { HindsightError } from '../../../shared/errors.js';
import { fromWire, versionSchema, wireSnapshot } from '../remoteLayout/recordFormat.js';
import { isMachineId } from '../remoteLayout/remoteKeys.js';
import { BLOB_HASH } from '../../../shared/blobHash.js';
import { ORIGIN_KINDS } from '../../../shared/history.js';

// The bundle: a project's history (or the part of it after a snapshot) as one stream that checks
// itself (docs/BUNDLE.md). A first line naming the format and its version, then framed records:
//
//   'H' header   u32 length, JSON   once, first
//   'S' snapshots u32 length, JSON  snapshots with their versions, oldest first
//   'M' modes    u32 length, JSON   folder-mode rows
//   'P' pins     u32 length, JSON   the pinned snapshots and versions among those carried (version 2)
//   'L' lines    u32 length, JSON   the other machines' lines of history and where each forked (version 3)
//   'B' blob     32 bytes SHA-256, u64 size, the bytes    each blob once, by hash
//   'Z' compressed blob  32 bytes SHA-256, u64 size, u32 length, the store's compressed form (version 4)
//   'E' end      u32 length, JSON   counts and the SHA-256 of every byte before the 'E'
//
// The row shapes are the remote tier's (remoteLayout/recordFormat.ts): a snapshot is known by
// the id it has where it was recorded (`origin`), each version carries its id too. Version 3 adds
// what the remote records leave out: where each snapshot came from (`made`: a restore, an undo,
// a git operation), the version a restored one was restored from, and for a snapshot another
// machine recorded (a pull or a clone brought it) that machine and the snapshot's id there, so an
// import keeps each machine's line of history apart (db/lines.ts). Version 4 carries a blob the
// exporting store keeps compressed as it is kept ('Z': codec/blobCodec.ts's form, header and zstd
// frame), so neither side inflates or compresses it again; the importer checks it (bounded by
// its size, hashed) before it keeps it. 'B' and 'Z' records share one order, ascending by hash.

export const FORMAT_NAME = 'hindsight-bundle';
export const FORMAT_VERSION = 4;
/**
 * Versions this Hindsight reads: 1 carried no pins (an import pins the checkpoints a person made);
 * 1 and 2 carried no origins and no lines (every snapshot lands on the importing machine's line);
 * 1 to 3 carried every blob raw.
 */
export const READABLE_VERSIONS: readonly number[] = [1, 2, 3, 4];
/** The first version whose blobs may come compressed ('Z' records). */
export const COMPRESSED_RECORDS_FROM = 4;
/** The first line: `head -1` says what the file is. */
export const MAGIC = Buffer.from(`${FORMAT_NAME} ${FORMAT_VERSION}\n`, 'ascii');

export const KIND = { header: 0x48, snapshots: 0x53, modes: 0x4d, pins: 0x50, lines: 0x4c, blob: 0x42, compressed: 0x5a, end: 0x45 } as const;

/** A JSON record's largest allowed length: a damaged length field never makes us allocate gigabytes. */
export const MAX_JSON_RECORD = 64 * 1024 * 1024;
/** Snapshot records are cut at about this many versions, so neither side holds one huge JSON text. */
export const VERSIONS_PER_RECORD = 20_000;
export const BLOB_HEAD = 1 + 32 + 8;
/** A compressed blob record's head: kind, hash, size, then the length of the compressed form. */
export const COMPRESSED_HEAD = BLOB_HEAD + 4;

const HASH = z.string().regex(BLOB_HASH);
const count = z.number().int().nonnegative();
const id = z.number().int().positive();
/** A machine's id as machineIdentity.ts makes it. */
const machineId = z.string().refine(isMachineId, 'not a machine id');

export const headerSchema = z.strictObject({
  format: z.literal(FORMAT_NAME),
  version: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(FORMAT_VERSION)]),
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
  /** Blobs its versions name that it does not carry: found damaged or missing where it was written (export --skip-damaged). */
  leftOut: z.array(z.tuple([HASH, count])).optional(),
  counts: z.strictObject({ versions: count, folderModes: count, pins: count.optional(), lines: count.optional(), blobs: count, bytes: count }),
});

/** Where a snapshot came from (shared/history.ts Origin; rows.ts OriginColumns), as recorded. */
const madeSchema = z.strictObject({
  kind: z.enum(ORIGIN_KINDS),
  snapshot: id.nullable(),
  fromGit: z.enum(['HEAD', 'INDEX']).nullable(),
  gitOperation: z.string().max(200).nullable(),
  gitWhen: z.enum(['before', 'after']).nullable(),
});

export const bundleVersionSchema = versionSchema.extend({
  versionId: id,
  /** Version 3: the version a restored one was restored from (absent: none). */
  fromVersion: id.optional(),
});
export const bundleSnapshotSchema = wireSnapshot
  .extend({
    versions: z.array(bundleVersionSchema),
    /** Version 3: where it came from (absent: told by its kind, as before origins were recorded). */
    made: madeSchema.optional(),
    /** Version 3: the machine that recorded it and its id there; absent: the exporting machine's own line. */
    machine: z.strictObject({ id: machineId, snapshot: id }).optional(),
  })
  .transform(fromWire);
export const snapshotsRecordSchema = z.array(bundleSnapshotSchema);
/** [path, snapshot id, mode]. */
export const modesRecordSchema = z.array(z.tuple([z.string().min(1), z.number().int().positive(), z.number().int().min(0).max(0o7777)]));

/** [id, the time it was pinned]. */
const pinRows = z.array(z.tuple([z.number().int().positive(), count]));
/** The pins of the carried snapshots, and of the carried versions. */
export const pinsRecordSchema = z.strictObject({ snapshots: pinRows, versions: pinRows });

/**
 * The lines of history and where each starts (a clone's line starts from the snapshot it wrote):
 * `machine` null is the exporting machine's own line; a fork on it names its snapshot by the id
 * the bundle gives it, a fork on another machine's line by that snapshot's id there.
 */
export const linesRecordSchema = z.array(
  z.strictObject({ machine: machineId.nullable(), fork: z.strictObject({ machine: machineId.nullable(), origin: id }).nullable() }),
);

export const endSchema = z.strictObject({
  snapshots: count,
  versions: count,
  folderModes: count,
  /** Pin rows carried (format 2). */
  pins: count.optional(),
  /** Line rows carried (format 3). */
  lines: count.optional(),
  blobs: count,
  bytes: count,
  /** SHA-256 of every byte of the stream before the 'E' record. */
  sha256: HASH,
});

export type BundleHeader = z.infer<typeof headerSchema>;
/** A bundle's snapshot as the code names it (`idOnMachine`: its id in the exporting history). */
export type BundleSnapshot = z.output<typeof bundleSnapshotSchema>;
/** A bundle's snapshot as its JSON holds it (`origin`). */
export type BundleSnapshotWire = z.input<typeof bundleSnapshotSchema>;
export type BundleVersion = z.infer<typeof bundleVersionSchema>;
export type FolderModeRow = z.infer<typeof modesRecordSchema>[number];
export type BundlePins = z.infer<typeof pinsRecordSchema>;
export type BundleLine = z.infer<typeof linesRecordSchema>[number];
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

/** A compressed blob record's head: kind, hash, size (raw), the compressed form's length (its bytes follow). */
export function compressedHead(hash: string, size: number, length: number): Buffer {
  const head = Buffer.allocUnsafe(COMPRESSED_HEAD);
  blobHead(hash, size).copy(head, 0);
  head[0] = KIND.compressed;
  head.writeUInt32BE(length, BLOB_HEAD);
  return head;
}

export function bundleCorrupt(why: string, details: Record<string, unknown> = {}): HindsightError {
  return new HindsightError('BUNDLE_CORRUPT', `The bundle is damaged or cut off: ${why}. Nothing was imported from it.`, details);
}
