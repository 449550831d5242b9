import type { RecordedSnapshot } from '../remoteLayout/recordFormat.js';
import * as lineQueries from './lineQueries.js';
import * as lines from './lines.js';
import type { RemoteLedger } from './remoteLedger.js';
import * as remoteLedgerQueries from './remoteLedgerQueries.js';
import type { RemoteLinkState } from './remoteLedgerQueries.js';
import type { Sql } from './sql.js';

// What a push, a pull and a clone ask of the index (HistoryIndex.remotes, lineQueries.ts,
// lines.ts, remoteLedgerQueries.ts): this machine's line as a push sends it, where a line
// starts, and the remote ledger.

export class RemoteIndex {
  constructor(private readonly sql: Sql) {}

  /** This machine's snapshots after `after`, with their versions, oldest first (what a push sends). */
  ownSnapshotsAfter(after: number): RecordedSnapshot[] {
    return lineQueries.ownSnapshotsAfter(this.sql, after);
  }

  countOwnSnapshotsAfter(after: number): number {
    return lineQueries.countOwnSnapshotsAfter(this.sql, after);
  }

  /** Where a machine's line starts (null: this machine's): the snapshot, by machine and id there, it was cloned from. */
  setLineFork(machine: string | null, fork: { machine: string; origin: number } | null, ownMachine: string): void {
    lines.setFork(this.sql, machine, fork, ownMachine);
  }

  /** What this history sent to one remote (keyed by remoteIdentity), made on first use. */
  remoteLedger(remote: string, ids: { projectId: string; machineId: string }): RemoteLedger {
    return remoteLedgerQueries.remoteLedger(this.sql, remote, ids);
  }

  noteRemoteError(remote: string, message: string): void {
    remoteLedgerQueries.noteRemoteError(this.sql, remote, message);
  }

  remoteLinkStates(): RemoteLinkState[] {
    return remoteLedgerQueries.remoteLinkStates(this.sql);
  }

  /** The ids (on that machine) of the snapshots already brought in from a machine. */
  importedOrigins(machine: string): Set<number> {
    return new Set(this.sql.rows<[number]>('SELECT machine_snapshot FROM snapshots WHERE machine = ?', machine).map(([origin]) => origin));
  }
}
