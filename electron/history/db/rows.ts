import type { EntryType, SnapshotInfo, SnapshotKind, VersionInfo } from '../../../shared/history.js';

// Rows as SQLite returns them, and the contract's shapes they become. Every query that returns
// versions or snapshots selects the same columns, so there is one mapping for each.

export const VERSION_SELECT = `SELECT v.id, v.snapshot_id, v.path, v.hash, v.mode, v.size, v.type, v.target,
  s.at, s.kind, s.branch, s.head FROM versions v JOIN snapshots s ON s.id = v.snapshot_id`;

export interface VersionRow {
  id: number;
  snapshot_id: number;
  path: string;
  hash: string | null;
  mode: number;
  size: number;
  type: EntryType | null;
  target: string | null;
  at: number;
  kind: SnapshotKind;
  branch: string | null;
  head: string | null;
}

export function toVersionInfo(r: VersionRow): VersionInfo {
  return {
    versionId: r.id,
    snapshotId: r.snapshot_id,
    path: r.path,
    hash: r.hash,
    mode: r.mode,
    size: r.size,
    at: r.at,
    kind: r.kind,
    type: r.type,
    target: r.target,
    branch: r.branch,
    head: r.head,
  };
}

/** `files` counts the snapshot's versions through the versions_by_snapshot index. */
export const SNAPSHOT_SELECT = `SELECT s.id, s.kind, s.at, s.label, s.branch, s.head,
  (SELECT COUNT(*) FROM versions v WHERE v.snapshot_id = s.id) AS files FROM snapshots s`;

export interface SnapshotRow {
  id: number;
  kind: SnapshotKind;
  at: number;
  label: string | null;
  files: number;
  branch: string | null;
  head: string | null;
}

export function toSnapshotInfo(r: SnapshotRow): SnapshotInfo {
  return { snapshotId: r.id, kind: r.kind, at: r.at, label: r.label, files: r.files, branch: r.branch, head: r.head };
}
