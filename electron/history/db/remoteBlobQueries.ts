import type { PackEntry } from '../remoteLayout/packFormat.js';
import type { BlobLocation, SentPack } from './remoteLedger.js';
import type { Sql } from './sql.js';

// Where each blob is on one remote (remote_blobs: in a pack, or alone), ours and other machines',
// and the packs this machine sent that no index names yet (remote_packs). `indexed` 0 marks what
// only an unfinished push of ours knows about.

interface BlobRow {
  hash: string;
  pack: string | null;
  offset: number;
  length: number;
  size: number;
  encoding: PackEntry[4];
}

/** A blob's place on the remote (pack null: stored alone), kept if one is known already. */
export function insertBlob(sql: Sql, remote: string, pack: string | null, entry: PackEntry, indexed: 0 | 1): void {
  const [hash, offset, length, size, encoding] = entry;
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
}

/** The entry of a blob stored alone: its whole body, as it is. */
export function aloneEntry(hash: string, size: number): PackEntry {
  return [hash, 0, size, size, 'raw'];
}

export function locateBlob(sql: Sql, remote: string, hash: string): BlobLocation | undefined {
  const b = sql.get<BlobRow>('SELECT hash, pack, offset, length, size, encoding FROM remote_blobs WHERE remote = ? AND hash = ?', remote, hash);
  if (!b) return undefined;
  return b.pack === null ? { alone: b.hash, size: b.size } : { pack: b.pack, entry: [b.hash, b.offset, b.length, b.size, b.encoding] };
}

export function unindexedPacks(sql: Sql, remote: string): SentPack[] {
  return sql
    .all<{ pack: string; size: number; blobs: string }>('SELECT pack, size, blobs FROM remote_packs WHERE remote = ? AND indexed = 0 ORDER BY pack', remote)
    .map((p) => ({ pack: p.pack, size: p.size, blobs: JSON.parse(p.blobs) as PackEntry[] }));
}

export function unindexedAlone(sql: Sql, remote: string): [string, number][] {
  return sql
    .rows<[string, number]>('SELECT hash, size FROM remote_blobs WHERE remote = ? AND indexed = 0 AND pack IS NULL ORDER BY hash', remote)
    .map(([hash, size]) => [hash, size] as [string, number]);
}

export function noteSentPack(sql: Sql, remote: string, pack: SentPack): void {
  sql.transaction(() => {
    sql.run(
      'INSERT OR IGNORE INTO remote_packs (remote, pack, size, blobs, indexed) VALUES (?, ?, ?, ?, 0)',
      remote,
      pack.pack,
      pack.size,
      JSON.stringify(pack.blobs),
    );
    for (const entry of pack.blobs) insertBlob(sql, remote, pack.pack, entry, 0);
  });
}

/** Everything this machine sent is now named by an index. */
export function markSentIndexed(sql: Sql, remote: string): void {
  sql.run('UPDATE remote_packs SET indexed = 1 WHERE remote = ? AND indexed = 0', remote);
  sql.run('UPDATE remote_blobs SET indexed = 1 WHERE remote = ? AND indexed = 0', remote);
}
