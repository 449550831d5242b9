import { HindsightError } from '../../../shared/errors.js';
import type { SnapshotInfo } from '../../../shared/history.js';
import type { HistoryIndex } from './historyIndex.js';

/** A snapshot a caller named must be in the history: its row, or SNAPSHOT_NOT_FOUND when it is not. */
export function requireSnapshot(index: HistoryIndex, snapshotId: number): SnapshotInfo {
  const snapshot = Number.isInteger(snapshotId) ? index.snapshotReads.snapshot(snapshotId) : undefined;
  if (!snapshot) throw new HindsightError('SNAPSHOT_NOT_FOUND', `There is no snapshot ${snapshotId}.`, { snapshotId });
  return snapshot;
}
