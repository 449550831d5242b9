import type { Sql } from './sql.js';
import * as twinMerge from './twinMerge.js';

export type { TwinMerge, TwinMergeOutcome } from './twinMerge.js';

// A twin's history merged into this one (HistoryIndex.twins, twinMerge.ts).

export class TwinIndex {
  constructor(private readonly sql: Sql) {}

  merge(merge: twinMerge.TwinMerge): twinMerge.TwinMergeOutcome {
    return twinMerge.mergeTwin(this.sql, merge);
  }
}
