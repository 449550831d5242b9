import { headSchema, type RemoteHead } from '../remote/layout/headFormat.js';
import type { PackIndex } from '../remote/layout/indexFormat.js';
import type { PackEntry } from '../remote/layout/packFormat.js';
import type { BlobLocation, ForeignHead, RemoteLedger, RemoteLink, SentPack } from './remoteLedger.js';
import { setFork } from './lines.js';
import type { Sql } from './sql.js';

// The remote ledger (remoteLedger.ts) in history.db: one row per remote in remote_links,
// every blob's place on that remote in remote_blobs (ours and other machines'), the packs this
// machine sent that no index names yet in remote_packs, and other machines' heads and the objects
// of theirs already read. Each note is one statement or one transaction, written right after the
// request that made it true.

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

interface BlobRow {
  hash: string;
  pack: string | null;
  offset: number;
  length: number;
  size: number;
  encoding: PackEntry[4];
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

export function remoteLedger(sql: Sql, remote: string, ids: { projectId: string; machineId: string }): RemoteLedger {
  sql.run('INSERT OR IGNORE INTO remote_links (remote, project_id, machine_id) VALUES (?, ?, ?)', remote, ids.projectId, ids.machineId);
  const row = () => sql.get<LinkRow>('SELECT * FROM remote_links WHERE remote = ?', remote)!;
  const appendList = (column: 'records' | 'indexes', key: string) => {
    const list = JSON.parse(row()[column]) as string[];
    if (!list.includes(key)) list.push(key);
    sql.run(`UPDATE remote_links SET ${column} = ? WHERE remote = ?`, JSON.stringify(list), remote);
  };
  const insertBlob = (hash: string, pack: string | null, offset: number, length: number, size: number, encoding: PackEntry[4], indexed: 0 | 1) =>
    sql.run(
      'INSERT OR IGNORE INTO remote_blobs (remote, hash, pack, offset, length, size, encoding, indexed) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      remote,
      hash,
      pack,
      offset,
      length,
      size,
      encoding,
      indexed,
    );

  return {
    link(): RemoteLink {
      const r = row();
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
    },

    locate(hash: string): BlobLocation | undefined {
      const b = sql.get<BlobRow>('SELECT hash, pack, offset, length, size, encoding FROM remote_blobs WHERE remote = ? AND hash = ?', remote, hash);
      if (!b) return undefined;
      return b.pack === null ? { alone: b.hash, size: b.size } : { pack: b.pack, entry: [b.hash, b.offset, b.length, b.size, b.encoding] };
    },

    unindexed() {
      const packs = sql
        .all<{ pack: string; size: number; blobs: string }>('SELECT pack, size, blobs FROM remote_packs WHERE remote = ? AND indexed = 0 ORDER BY pack', remote)
        .map((p) => ({ pack: p.pack, size: p.size, blobs: JSON.parse(p.blobs) as PackEntry[] }));
      const standalone = sql
        .rows<[string, number]>('SELECT hash, size FROM remote_blobs WHERE remote = ? AND indexed = 0 AND pack IS NULL ORDER BY hash', remote)
        .map(([hash, size]) => [hash, size] as [string, number]);
      return { packs, standalone };
    },

    noteSentPack(pack: SentPack) {
      sql.transaction(() => {
        sql.run(
          'INSERT OR IGNORE INTO remote_packs (remote, pack, size, blobs, indexed) VALUES (?, ?, ?, ?, 0)',
          remote,
          pack.pack,
          pack.size,
          JSON.stringify(pack.blobs),
        );
        for (const [hash, offset, length, size, encoding] of pack.blobs) insertBlob(hash, pack.pack, offset, length, size, encoding, 0);
      });
    },

    noteSentAlone(hash: string, size: number) {
      insertBlob(hash, null, 0, size, size, 'raw', 0);
    },

    noteIndexed(key: string) {
      sql.transaction(() => {
        sql.run('UPDATE remote_packs SET indexed = 1 WHERE remote = ? AND indexed = 0', remote);
        sql.run('UPDATE remote_blobs SET indexed = 1 WHERE remote = ? AND indexed = 0', remote);
        appendList('indexes', key);
      });
    },

    noteRecord(key: string, lastOrigin: number, snapshots: number) {
      sql.transaction(() => {
        appendList('records', key);
        sql.run('UPDATE remote_links SET pushed_origin = ?, pushed_snapshots = pushed_snapshots + ? WHERE remote = ?', lastOrigin, snapshots, remote);
      });
    },

    noteHead(etag: string) {
      sql.run('UPDATE remote_links SET head_etag = ?, pushed_at = ?, last_error = NULL WHERE remote = ?', etag, Date.now(), remote);
    },

    adoptHead(head: RemoteHead, etag: string) {
      // The head is written last: everything sent before it is named by the indexes it lists.
      sql.transaction(() => {
        sql.run('UPDATE remote_packs SET indexed = 1 WHERE remote = ? AND indexed = 0', remote);
        sql.run('UPDATE remote_blobs SET indexed = 1 WHERE remote = ? AND indexed = 0', remote);
        sql.run(
          'UPDATE remote_links SET head_etag = ?, records = ?, indexes = ?, pushed_origin = ?, pushed_snapshots = ? WHERE remote = ?',
          etag,
          JSON.stringify(head.records),
          JSON.stringify(head.indexes),
          head.lastOrigin,
          head.snapshots,
          remote,
        );
      });
    },

    setPushInProgress(running: boolean) {
      sql.run('UPDATE remote_links SET push_in_progress = ? WHERE remote = ?', running ? 1 : 0, remote);
    },

    forgetSent() {
      sql.transaction(() => {
        for (const table of ['remote_packs', 'remote_blobs', 'remote_foreign', 'remote_read']) sql.run(`DELETE FROM ${table} WHERE remote = ?`, remote);
        sql.run(
          "UPDATE remote_links SET pushed_origin = 0, pushed_snapshots = 0, head_etag = NULL, records = '[]', indexes = '[]', push_in_progress = 0 WHERE remote = ?",
          remote,
        );
      });
    },

    foreignHeads(): Map<string, ForeignHead> {
      const heads = new Map<string, ForeignHead>();
      for (const f of sql.all<{ machine_id: string; etag: string; head: string }>(
        'SELECT machine_id, etag, head FROM remote_foreign WHERE remote = ?',
        remote,
      )) {
        heads.set(f.machine_id, {
          machineId: f.machine_id,
          etag: f.etag,
          head: headSchema.parse(JSON.parse(f.head)),
          indexesRead: new Set(),
          recordsRead: new Set(),
        });
      }
      for (const r of sql.all<{ key: string; machine_id: string; kind: string }>('SELECT key, machine_id, kind FROM remote_read WHERE remote = ?', remote)) {
        const head = heads.get(r.machine_id);
        if (head) (r.kind === 'index' ? head.indexesRead : head.recordsRead).add(r.key);
      }
      return heads;
    },

    noteForeignHead(machineId: string, etag: string, head: RemoteHead) {
      sql.run(
        'INSERT INTO remote_foreign (remote, machine_id, etag, head) VALUES (?, ?, ?, ?) ON CONFLICT(remote, machine_id) DO UPDATE SET etag = excluded.etag, head = excluded.head',
        remote,
        machineId,
        etag,
        JSON.stringify(head),
      );
      // Where that machine's line starts, for the queries that follow it (lines.ts).
      setFork(sql, machineId, head.fork, ids.machineId);
    },

    noteForeignIndex(machineId: string, key: string, index: PackIndex) {
      sql.transaction(() => {
        for (const pack of index.packs)
          for (const [hash, offset, length, size, encoding] of pack.blobs) insertBlob(hash, pack.pack, offset, length, size, encoding, 1);
        for (const [hash, size] of index.standalone) insertBlob(hash, null, 0, size, size, 'raw', 1);
        sql.run("INSERT OR IGNORE INTO remote_read (remote, key, machine_id, kind) VALUES (?, ?, ?, 'index')", remote, key, machineId);
      });
    },

    noteForeignRecords(machineId: string, keys: readonly string[]) {
      sql.transaction(() => {
        for (const key of keys) sql.run("INSERT OR IGNORE INTO remote_read (remote, key, machine_id, kind) VALUES (?, ?, ?, 'record')", remote, key, machineId);
      });
    },
  };
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
