import type { RemoteHead } from '../remoteLayout/headFormat.js';
import { aloneEntry, insertBlob, locateBlob, markSentIndexed, noteSentPack, unindexedAlone, unindexedPacks } from './remoteBlobQueries.js';
import { foreignHeads, noteForeignHead, noteForeignIndex, noteForeignRecords } from './remoteForeignQueries.js';
import type { RemoteLedger } from './remoteLedger.js';
import { appendToList, ensureLink, noteHeadWritten, noteRecordSent, readLink, resetLink, setPushInProgress, takeHeadLists } from './remoteLinkQueries.js';
import type { Sql } from './sql.js';

export { noteRemoteError, remoteLinkStates, type RemoteLinkState } from './remoteLinkQueries.js';

// The remote ledger (remoteLedger.ts) in history.db: one row per remote in remote_links
// (remoteLinkQueries.ts), every blob's place on that remote in remote_blobs (ours and other
// machines') and the packs this machine sent that no index names yet in remote_packs
// (remoteBlobQueries.ts), and other machines' heads and the objects of theirs already read
// (remoteForeignQueries.ts). Each note is one statement or one transaction, written right after
// the request that made it true.

export function remoteLedger(sql: Sql, remote: string, ids: { projectId: string; machineId: string }): RemoteLedger {
  ensureLink(sql, remote, ids);
  return {
    link: () => readLink(sql, remote),
    locate: (hash) => locateBlob(sql, remote, hash),
    unindexed: () => ({ packs: unindexedPacks(sql, remote), standalone: unindexedAlone(sql, remote) }),
    noteSentPack: (pack) => noteSentPack(sql, remote, pack),
    noteSentAlone: (hash, size) => insertBlob(sql, remote, null, aloneEntry(hash, size), 0),
    noteIndexed: (key) => noteIndexed(sql, remote, key),
    noteRecord: (key, lastOrigin, snapshots) => noteRecordSent(sql, remote, key, lastOrigin, snapshots),
    noteHead: (etag) => noteHeadWritten(sql, remote, etag),
    adoptHead: (head, etag) => adoptHead(sql, remote, head, etag),
    setPushInProgress: (running) => setPushInProgress(sql, remote, running),
    forgetSent: () => forgetSent(sql, remote),
    foreignHeads: () => foreignHeads(sql, remote),
    noteForeignHead: (machineId, etag, head) => noteForeignHead(sql, remote, { machineId, ownMachineId: ids.machineId }, etag, head),
    noteForeignIndex: (machineId, key, index) => noteForeignIndex(sql, remote, machineId, key, index),
    noteForeignRecords: (machineId, keys) => noteForeignRecords(sql, remote, machineId, keys),
  };
}

/** The index `key` names every blob sent so far; the head will list it. */
function noteIndexed(sql: Sql, remote: string, key: string): void {
  sql.transaction(() => {
    markSentIndexed(sql, remote);
    appendToList(sql, remote, 'indexes', key);
  });
}

function adoptHead(sql: Sql, remote: string, head: RemoteHead, etag: string): void {
  // The head is written last: everything sent before it is named by the indexes it lists.
  sql.transaction(() => {
    markSentIndexed(sql, remote);
    takeHeadLists(sql, remote, head, etag);
  });
}

function forgetSent(sql: Sql, remote: string): void {
  sql.transaction(() => {
    for (const table of ['remote_packs', 'remote_blobs', 'remote_foreign', 'remote_read']) sql.run(`DELETE FROM ${table} WHERE remote = ?`, remote);
    resetLink(sql, remote);
  });
}
