import type { Pins } from '../../../shared/contract/values.js';
import * as pins from './pins.js';
import type { Sql } from './sql.js';

// Pinned snapshots and versions (HistoryIndex.pinning, pins.ts).

export class PinIndex {
  constructor(private readonly sql: Sql) {}

  pins(): Pins {
    return pins.pins(this.sql);
  }

  setSnapshotPin(snapshotId: number, pinned: boolean, at = Date.now()): boolean {
    return pins.setSnapshotPin(this.sql, snapshotId, pinned, at);
  }

  setVersionPin(versionId: number, pinned: boolean, at = Date.now()): boolean {
    return pins.setVersionPin(this.sql, versionId, pinned, at);
  }
}
