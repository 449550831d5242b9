import type { Sql } from './sql.js';
import { maxOf } from '../../../shared/largeArrays.js';

// Snapshots a bundle import wrote onto this machine's line keep their ids and have no machine of
// their own (a bundle of one's own line looks the same as one of another person's), so they
// cannot be told from this machine's snapshots row by row. The highest id an import wrote there
// is kept in meta instead: every snapshot up to it may have come from another history (restores
// then treat its versions as foreign: restore/specialModes.ts); snapshots recorded here after
// the import have higher ids.

const KEY = 'importedThrough';

/** Notes that an import wrote these snapshot ids onto this machine's line (inside its transaction). */
export function noteImportedThrough(sql: Sql, ids: readonly number[]): void {
  if (ids.length === 0) return;
  const top = maxOf(ids, importedThrough(sql));
  sql.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', KEY, String(top));
}

/** The highest snapshot id an import wrote onto this machine's line; 0 when none ever did. */
export function importedThrough(sql: Sql): number {
  return Number(sql.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', KEY)?.value ?? 0);
}
