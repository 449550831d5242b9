import type { RemoteHead } from '../remoteLayout/headFormat.js';
import type { RemoteLink } from './remoteLedger.js';
import type { Sql } from './sql.js';

// One remote's row in remote_links: the project and machine it is pushed as, what this machine's
// head on it lists (records, indexes, the newest snapshot sent), and how the last push went.

interface LinkRow {
  project_id: string;
  machine_id: string;
  pushed_origin: number;
  pushed_snapshots: number;
  head_etag: string | null;
  records: string;
  indexes: string;
  push_in_progress: number;
  pushed_at: number | null;
  last_error: string | null;
}

/** What the Store tab and `remote list` say about one remote of a project. */
export interface RemoteLinkState {
  remote: string;
  projectId: string;
  pushedSnapshots: number;
  pushedOrigin: number;
  pushedAt: number | null;
  lastError: string | null;
  pushInProgress: boolean;
}

/** The remote's row, made the first time the remote is used (a link made earlier is kept as is). */
export function ensureLink(sql: Sql, remote: string, ids: { projectId: string; machineId: string }): void {
  sql.run('INSERT OR IGNORE INTO remote_links (remote, project_id, machine_id) VALUES (?, ?, ?)', remote, ids.projectId, ids.machineId);
}

function linkRow(sql: Sql, remote: string): LinkRow {
  return sql.get<LinkRow>('SELECT * FROM remote_links WHERE remote = ?', remote)!;
}

export function readLink(sql: Sql, remote: string): RemoteLink {
  const r = linkRow(sql, remote);
  return {
    projectId: r.project_id,
    machineId: r.machine_id,
    pushedOrigin: r.pushed_origin,
    pushedSnapshots: r.pushed_snapshots,
    headEtag: r.head_etag,
    records: JSON.parse(r.records) as string[],
    indexes: JSON.parse(r.indexes) as string[],
    pushInProgress: r.push_in_progress === 1,
  };
}

/** Adds a key to the head's list of records or indexes (once). */
export function appendToList(sql: Sql, remote: string, column: 'records' | 'indexes', key: string): void {
  const list = JSON.parse(linkRow(sql, remote)[column]) as string[];
  if (!list.includes(key)) list.push(key);
  sql.run(`UPDATE remote_links SET ${column} = ? WHERE remote = ?`, JSON.stringify(list), remote);
}

export function noteRecordSent(sql: Sql, remote: string, key: string, lastOrigin: number, snapshots: number): void {
  sql.transaction(() => {
    appendToList(sql, remote, 'records', key);
    sql.run('UPDATE remote_links SET pushed_origin = ?, pushed_snapshots = pushed_snapshots + ? WHERE remote = ?', lastOrigin, snapshots, remote);
  });
}

/** The head written: the push succeeded, its error (if any) is cleared. */
export function noteHeadWritten(sql: Sql, remote: string, etag: string): void {
  sql.run('UPDATE remote_links SET head_etag = ?, pushed_at = ?, last_error = NULL WHERE remote = ?', etag, Date.now(), remote);
}

/** The link takes the lists of this machine's head as found on the remote. */
export function takeHeadLists(sql: Sql, remote: string, head: RemoteHead, etag: string): void {
  sql.run(
    'UPDATE remote_links SET head_etag = ?, records = ?, indexes = ?, pushed_origin = ?, pushed_snapshots = ? WHERE remote = ?',
    etag,
    JSON.stringify(head.records),
    JSON.stringify(head.indexes),
    head.lastOrigin,
    head.snapshots,
    remote,
  );
}

export function setPushInProgress(sql: Sql, remote: string, running: boolean): void {
  sql.run('UPDATE remote_links SET push_in_progress = ? WHERE remote = ?', running ? 1 : 0, remote);
}

/** Back to a link that has sent nothing (its ids stay). */
export function resetLink(sql: Sql, remote: string): void {
  sql.run(
    "UPDATE remote_links SET pushed_origin = 0, pushed_snapshots = 0, head_etag = NULL, records = '[]', indexes = '[]', push_in_progress = 0 WHERE remote = ?",
    remote,
  );
}

/** Notes a failed push (shown until the next push succeeds). */
export function noteRemoteError(sql: Sql, remote: string, message: string): void {
  sql.run('UPDATE remote_links SET last_error = ? WHERE remote = ?', message, remote);
}

export function remoteLinkStates(sql: Sql): RemoteLinkState[] {
  return sql.all<LinkRow & { remote: string }>('SELECT * FROM remote_links ORDER BY remote').map((r) => ({
    remote: r.remote,
    projectId: r.project_id,
    pushedSnapshots: r.pushed_snapshots,
    pushedOrigin: r.pushed_origin,
    pushedAt: r.pushed_at,
    lastError: r.last_error,
    pushInProgress: r.push_in_progress === 1,
  }));
}
