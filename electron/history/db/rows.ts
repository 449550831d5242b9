import type { EntryType, GitSource, Origin, OriginKind, SnapshotInfo, SnapshotKind, VersionInfo } from '../../../shared/history.js';
import { shortenHashes } from '../../../shared/shortHash.js';

// Rows as SQLite returns them, and the contract's shapes they become. Every query that returns
// versions or snapshots selects the same columns, so there is one mapping for each.

export const VERSION_SELECT = `SELECT v.id, v.snapshot_id, v.path, v.hash, v.mode, v.size, v.type, v.target, v.from_version,
  (SELECT r.from_path FROM version_renames r WHERE r.version_id = v.id) AS renamed_from,
  s.at, s.kind, s.label, s.branch, s.head, s.machine, s.machine_snapshot, ${originColumns('s')} FROM versions v JOIN snapshots s ON s.id = v.snapshot_id`;

/** A snapshot's origin columns (migration 3). */
export interface OriginColumns {
  origin: OriginKind | null;
  origin_snapshot: number | null;
  from_git: GitSource | null;
  git_operation: string | null;
  git_when: 'before' | 'after' | null;
}

function originColumns(table: string): string {
  return ['origin', 'origin_snapshot', 'from_git', 'git_operation', 'git_when'].map((c) => `${table}.${c}`).join(', ');
}

/** What a snapshot written before origins were recorded came from, told by its kind. */
export function originOfKind(kind: SnapshotKind): OriginKind {
  return kind === 'baseline' ? 'first-copy' : kind === 'change' ? 'edit' : kind;
}

export function toOrigin(r: OriginColumns & { kind: SnapshotKind }, fromVersion: number | null): Origin {
  const kind = r.origin ?? originOfKind(r.kind);
  return {
    kind,
    fromVersionId: fromVersion,
    fromSnapshotId: r.origin_snapshot,
    fromGit: r.from_git,
    gitOperation: r.git_operation,
    gitWhen: r.git_when,
  };
}

export interface VersionRow extends OriginColumns {
  id: number;
  snapshot_id: number;
  path: string;
  hash: string | null;
  mode: number;
  size: number;
  type: EntryType | null;
  target: string | null;
  from_version: number | null;
  renamed_from: string | null;
  at: number;
  kind: SnapshotKind;
  label: string | null;
  branch: string | null;
  head: string | null;
  machine: string | null;
  machine_snapshot: number | null;
}

export function toVersionInfo(r: VersionRow): VersionInfo {
  const info: VersionInfo = {
    versionId: r.id,
    snapshotId: r.snapshot_id,
    path: r.path,
    hash: r.hash,
    mode: r.mode,
    size: r.size,
    at: r.at,
    kind: r.kind,
    label: readLabel(r.label, r.origin),
    type: r.type,
    target: r.target,
    branch: r.branch,
    head: r.head,
    origin: toOrigin(r, r.from_version),
    renamedFrom: r.renamed_from,
  };
  // Only versions brought in from another machine (clone, pull) carry it, as their snapshots do.
  if (r.machine !== null) info.machine = { id: r.machine, snapshot: r.machine_snapshot ?? 0 };
  return info;
}

/**
 * A checkpoint git's operation made (or, in an older store, worded as one) that records no file:
 * its files are those of the snapshot before it, so the timeline shows it folded into that one.
 */
const GIT_CHECKPOINT = `s.kind = 'checkpoint' AND s.machine IS NULL
  AND ((s.origin = 'git' AND s.git_when = 'before')
    OR (s.origin IS NULL AND (s.label LIKE 'Before checkout to %' OR s.label LIKE 'Before HEAD moved%'
      OR s.label LIKE 'Before stash (%' OR s.label LIKE 'Before stash pop (%')))
  AND NOT EXISTS (SELECT 1 FROM versions fv WHERE fv.snapshot_id = s.id)`;

/** The snapshot of this machine's line a git checkpoint equals: the newest before it that is no such checkpoint. */
export const FOLDED_INTO = `CASE WHEN ${GIT_CHECKPOINT} THEN (SELECT p.id FROM snapshots p
  WHERE p.machine IS NULL AND p.machine_snapshot IS NULL AND p.id < s.id
    AND NOT (p.kind = 'checkpoint' AND p.origin = 'git' AND p.git_when = 'before')
  ORDER BY p.id DESC LIMIT 1) END`;

/** `files` counts the snapshot's versions through the versions_by_snapshot index. */
export const SNAPSHOT_SELECT = `SELECT s.id, s.kind, s.at, s.label, s.branch, s.head, s.scope, s.machine, s.machine_snapshot, ${originColumns('s')},
  (SELECT COUNT(*) FROM versions v WHERE v.snapshot_id = s.id) AS files, ${FOLDED_INTO} AS folded_into FROM snapshots s`;

export interface SnapshotRow extends OriginColumns {
  id: number;
  kind: SnapshotKind;
  at: number;
  label: string | null;
  files: number;
  branch: string | null;
  head: string | null;
  scope: string | null;
  machine: string | null;
  machine_snapshot: number | null;
  folded_into: number | null;
}

/**
 * A label as shown: whole commit ids in the labels git's operations were given (older stores
 * wrote "After checkout to <40 digits>") shortened to git's 7. A person's own words stay as written.
 */
export function readLabel(label: string | null, origin: OriginKind | null): string | null {
  return label !== null && (origin === 'git' || origin === null) ? shortenHashes(label) : label;
}

export function toSnapshotInfo(r: SnapshotRow): SnapshotInfo {
  const info: SnapshotInfo = {
    snapshotId: r.id,
    kind: r.kind,
    at: r.at,
    label: readLabel(r.label, r.origin),
    files: r.files,
    branch: r.branch,
    head: r.head,
    origin: toOrigin(r, null),
    scope: r.scope,
  };
  // Only snapshots brought in from another machine (clone, pull) carry it.
  if (r.machine !== null) info.machine = { id: r.machine, snapshot: r.machine_snapshot ?? 0 };
  if (r.folded_into !== null) info.foldedInto = r.folded_into;
  return info;
}
