import { formatExact } from './time.js';

// A snapshot as people know it: by its time (and the title beside it), never by its internal id.

export function snapshotName(snapshot: { at: number } | undefined): string {
  return snapshot ? `the snapshot of ${formatExact(snapshot.at)}` : 'an earlier snapshot';
}

/** A restore's stored title ("Restored src to snapshot 261") with the snapshot named by its time. */
export function restoreLabel(label: string, snapshotAt: (snapshotId: number) => { at: number } | undefined): string {
  const named = /^(.+) to snapshot (\d+)$/.exec(label);
  return named ? `${named[1]} to ${snapshotName(snapshotAt(Number(named[2])))}` : label;
}
