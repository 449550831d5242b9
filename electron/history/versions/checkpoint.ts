import { HindsightError } from '../../../shared/errors.js';
import type { ProjectStore } from '../project/projectStore.js';

// A named checkpoint: a labelled snapshot of kind 'checkpoint' that holds no versions of its own.
// Every file as it stood at that moment is what the versions before it say, so restoring the
// checkpoint brings the project back to that moment. Callers bring the history up to date with
// the disk first (a rescan), so the checkpoint means what the disk held. One a person makes is
// pinned as it is made (no prune removes it until they unpin it); those written by themselves
// (before a mass change) follow the retention policy.

export const MAX_LABEL = 200;

export function insertCheckpoint(store: ProjectStore, label: string, options: { pin?: boolean } = {}): number {
  const clean = label.trim();
  if (clean.length === 0 || clean.length > MAX_LABEL || /[\0\r\n]/.test(clean)) {
    throw new HindsightError('BAD_REQUEST', `A checkpoint needs a one-line label of 1 to ${MAX_LABEL} characters.`, { label });
  }
  return store.index.commitSnapshot({ snapshot: { kind: 'checkpoint', label: clean }, versions: [], blobs: [], pin: options.pin === true });
}
