import { z } from 'zod';
import { projectPathProblem } from '../../../../shared/projectPath.js';
import { decodeGzipJson, encodeGzipJson } from './jsonObject.js';
import { BLOB_HASH } from '../../../../shared/blobHash.js';
import { SNAPSHOT_KINDS } from '../../../../shared/history.js';

// A snapshot record (snapshots/<machine>/<first>-<last>-<sha256>.json.gz): the snapshots one
// push brought up from one machine, each with the versions it recorded, in the machine's order.
// A snapshot is known everywhere by its machine and the id it has there (`origin`).

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

export const recordedSnapshotSchema = z.object({
  origin: z.number().int().positive(),
  kind: z.enum(SNAPSHOT_KINDS),
  at: z.number().int().nonnegative(),
  label: z.string().nullable(),
  branch: z.string().nullable(),
  head: z.string().nullable(),
  versions: z.array(versionSchema),
});

export const recordSchema = z.object({
  format: z.literal(1),
  machine: z.string(),
  snapshots: z.array(recordedSnapshotSchema).min(1),
});

export type RecordedVersion = z.infer<typeof versionSchema>;
export type RecordedSnapshot = z.infer<typeof recordedSnapshotSchema>;
export type SnapshotRecord = z.infer<typeof recordSchema>;

export function encodeRecord(machine: string, snapshots: RecordedSnapshot[]): { body: Buffer; hash: string } {
  const value: SnapshotRecord = { format: 1, machine, snapshots };
  return encodeGzipJson(value);
}

export function decodeRecord(body: Buffer, hash: string): SnapshotRecord {
  return decodeGzipJson(body, recordSchema, `snapshot record ${hash.slice(0, 12)}…`, hash);
}
