import { HindsightError } from '../../../shared/errors.js';
import type { HistoryIndex } from './historyIndex.js';

/** A snapshot a caller named must be in the history: SNAPSHOT_NOT_FOUND when it is not. */
export function requireSnapshot(index: HistoryIndex, snapshotId: number): void {
  if (!index.snapshot(snapshotId)) {
    throw new HindsightError('SNAPSHOT_NOT_FOUND', `There is no snapshot ${snapshotId}.`, { snapshotId });
  }
}
