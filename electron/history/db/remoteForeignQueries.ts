import { headSchema, type RemoteHead } from '../remoteLayout/headFormat.js';
import type { PackIndex } from '../remoteLayout/indexFormat.js';
import { aloneEntry, insertBlob } from './remoteBlobQueries.js';
import type { ForeignHead } from './remoteLedger.js';
import { setFork } from './lines.js';
import type { Sql } from './sql.js';

// Other machines on one remote: their heads (remote_foreign) and which of their indexes and
// records this machine has read already (remote_read), so a pull reads each object once.

export function foreignHeads(sql: Sql, remote: string): Map<string, ForeignHead> {
  const heads = new Map<string, ForeignHead>();
  for (const f of sql.all<{ machine_id: string; etag: string; head: string }>('SELECT machine_id, etag, head FROM remote_foreign WHERE remote = ?', remote)) {
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
}

export function noteForeignHead(sql: Sql, remote: string, ids: { machineId: string; ownMachineId: string }, etag: string, head: RemoteHead): void {
  sql.run(
    'INSERT INTO remote_foreign (remote, machine_id, etag, head) VALUES (?, ?, ?, ?) ON CONFLICT(remote, machine_id) DO UPDATE SET etag = excluded.etag, head = excluded.head',
    remote,
    ids.machineId,
    etag,
    JSON.stringify(head),
  );
  // Where that machine's line starts, for the queries that follow it (lines.ts).
  setFork(sql, ids.machineId, head.fork, ids.ownMachineId);
}

/** An index of another machine read: every blob it names is located, and it is not read again. */
export function noteForeignIndex(sql: Sql, remote: string, machineId: string, key: string, index: PackIndex): void {
  sql.transaction(() => {
    for (const pack of index.packs) for (const entry of pack.blobs) insertBlob(sql, remote, pack.pack, entry, 1);
    for (const [hash, size] of index.standalone) insertBlob(sql, remote, null, aloneEntry(hash, size), 1);
    sql.run("INSERT OR IGNORE INTO remote_read (remote, key, machine_id, kind) VALUES (?, ?, ?, 'index')", remote, key, machineId);
  });
}

export function noteForeignRecords(sql: Sql, remote: string, machineId: string, keys: readonly string[]): void {
  sql.transaction(() => {
    for (const key of keys) sql.run("INSERT OR IGNORE INTO remote_read (remote, key, machine_id, kind) VALUES (?, ?, ?, 'record')", remote, key, machineId);
  });
}
