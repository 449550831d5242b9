import * as z from 'zod';
import { projectPathProblem } from '../../../shared/projectPath.js';
import { decodeGzipJson, encodeGzipJson } from './jsonObject.js';
import { BLOB_HASH } from '../../../shared/blobHash.js';
import { SNAPSHOT_KINDS } from '../../../shared/history.js';

// A snapshot record (snapshots/<machine>/<first>-<last>-<sha256>.json.gz): the snapshots one
// push brought up from one machine, each with the versions it recorded, in the machine's order.
// A snapshot is known everywhere by its machine and the id it has there: `idOnMachine` in the
// code, `origin` in the JSON of records and bundles (kept, so every record and bundle already
// written still reads), mapped here and nowhere else (wireSnapshot / fromWire / toWire).

const HASH = z.string().regex(BLOB_HASH);
const projectPath = z.string().refine((p) => projectPathProblem(p) === null, 'a version path is not a safe project path');

export const versionSchema = z.object({
  path: projectPath,
  /** null: the file was deleted in this snapshot. */
  hash: HASH.nullable(),
  mode: z.number().int().min(0).max(0o177777),
  size: z.number().int().nonnegative(),
  type: z.enum(['file', 'symlink']).nullable(),
  target: z.string().nullable(),
});

/** A recorded snapshot as its JSON holds it (a bundle's extends it). */
export const wireSnapshot = z.object({
  /** The snapshot's id on the machine that recorded it. */
  origin: z.number().int().positive(),
  kind: z.enum(SNAPSHOT_KINDS),
  at: z.number().int().nonnegative(),
  label: z.string().nullable(),
  branch: z.string().nullable(),
  head: z.string().nullable(),
  versions: z.array(versionSchema),
});

/** The JSON's `origin` as the code names it. */
export function fromWire<T extends { origin: number }>({ origin, ...rest }: T): Omit<T, 'origin'> & { idOnMachine: number } {
  return { idOnMachine: origin, ...rest };
}

/** Back to the JSON's names, `origin` first as it always was (a record's name is the hash of its bytes). */
export function toWire<T extends { idOnMachine: number }>({ idOnMachine, ...rest }: T): Omit<T, 'idOnMachine'> & { origin: number } {
  return { origin: idOnMachine, ...rest };
}

export const recordedSnapshotSchema = wireSnapshot.transform(fromWire);

export const recordSchema = z.object({
  format: z.literal(1),
  machine: z.string(),
  snapshots: z.array(recordedSnapshotSchema).min(1),
});

export type RecordedVersion = z.infer<typeof versionSchema>;
export type RecordedSnapshot = z.output<typeof recordedSnapshotSchema>;
export type SnapshotRecord = z.output<typeof recordSchema>;

export function encodeRecord(machine: string, snapshots: RecordedSnapshot[]): { body: Buffer; hash: string } {
  const value: z.input<typeof recordSchema> = { format: 1, machine, snapshots: snapshots.map(toWire) };
  return encodeGzipJson(value);
}

export function decodeRecord(body: Buffer, hash: string): SnapshotRecord {
  return decodeGzipJson(body, recordSchema, `snapshot record ${hash.slice(0, 12)}…`, hash);
}
