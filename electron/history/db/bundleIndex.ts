import type { SnapshotInfo } from '../../../shared/history.js';
import * as bundleRows from './bundleRows.js';
import type { BlobPresent } from './commitSnapshot.js';
import { importedThrough } from './importedThrough.js';
import type { Sql } from './sql.js';

// What a bundle's export reads and its import writes (HistoryIndex.bundles, bundleRows.ts).

export class BundleIndex {
  constructor(
    private readonly sql: Sql,
    private readonly blobPresent: BlobPresent,
    private readonly onSnapshot: ((snapshot: SnapshotInfo) => void) | undefined,
  ) {}

  snapshotsBetween(since: number, last: number): bundleRows.SnapshotRowOut[] {
    return bundleRows.snapshotsBetween(this.sql, since, last);
  }

  versionPage(since: number, last: number, from: [number, number], limit: number): bundleRows.VersionRowOut[] {
    return bundleRows.versionPage(this.sql, since, last, from, limit);
  }

  folderModesBetween(since: number, last: number): [string, number, number][] {
    return bundleRows.folderModesBetween(this.sql, since, last);
  }

  pinsBetween(since: number, last: number): bundleRows.PinRows {
    return bundleRows.pinsBetween(this.sql, since, last);
  }

  blobsBetween(since: number, last: number): { hash: string; size: number; held: number }[] {
    return bundleRows.blobsBetween(this.sql, since, last);
  }

  /** The lines of history a bundle carries. */
  linesOut(): bundleRows.LineRowOut[] {
    return bundleRows.linesOut(this.sql);
  }

  /** The highest snapshot id a bundle import wrote onto this machine's line (importedThrough.ts); 0: none. */
  importedThrough(): number {
    return importedThrough(this.sql);
  }

  /** Writes an import's rows in one transaction, then announces each snapshot it added (like commitSnapshot). */
  importRows(rows: bundleRows.ImportedRows): SnapshotInfo[] {
    const written = bundleRows.writeImportedRows(this.sql, rows, this.blobPresent);
    for (const snapshot of written) {
      try {
        this.onSnapshot?.(snapshot);
      } catch {
        // A listener's failure is its own: the rows are written and stay written.
      }
    }
    return written;
  }
}
