import type { SnapshotInfo } from '../../../shared/contract.js';
import { policyKeeps } from '../../../shared/retentionBuckets.js';
import type { RetentionPolicy } from '../../../shared/retention.js';

// Where the timeline shows the policy's thinning start: above the first snapshot (newest first)
// past each rule's reach, "one per hour from here", "one per day", "one per week". The same
// buckets the engine prunes with (shared/retentionBuckets.ts), on the same times.

/** snapshotId -> the line shown above it. `snapshots` newest first, as the timeline lists them. */
export function thinningMarks(snapshots: readonly SnapshotInfo[], policy: RetentionPolicy): Map<number, string> {
  const ascending = [...snapshots].sort((a, b) => a.snapshotId - b.snapshotId);
  const marks = new Map<number, string>();
  if (ascending.length < 2) return marks;
  const keeps = policyKeeps(
    ascending.map((s) => ({ id: s.snapshotId, at: s.at })),
    policy,
  );
  // Each rule reaches past the one before only where its oldest kept snapshot is older.
  const zones: { since: number; words: string }[] = [];
  let reach = keeps.everyVersionSince;
  let next = 'One per hour from here';
  const rules: { count: number | null; since: number | undefined; words: string }[] = [
    { count: policy.hourly, since: keeps.hourlySince, words: 'One per day from here' },
    { count: policy.daily, since: keeps.dailySince, words: 'One per week from here' },
  ];
  for (const rule of rules) {
    if (rule.count === 0 || rule.since === undefined || rule.since >= reach) {
      next = rule.words;
      continue;
    }
    zones.push({ since: reach, words: next });
    reach = rule.since;
    next = rule.words;
  }
  if (policy.weekly !== 0) zones.push({ since: reach, words: next });
  for (const zone of zones) {
    // Newest first: the first snapshot older than the zone's start.
    for (let i = ascending.length - 1; i >= 0; i--) {
      if (keeps.times[i]! < zone.since) {
        const id = ascending[i]!.snapshotId;
        if (!marks.has(id)) marks.set(id, zone.words);
        break;
      }
    }
  }
  return marks;
}
