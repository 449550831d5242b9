import * as z from 'zod';

// The retention policy of config.json (settings.retention), as the engine applies it
// (electron/history/retention/) and the viewer puts it in words. Buckets count only where
// snapshots exist, as restic's --keep-* do: "hourly: 168" keeps the newest snapshot of each of
// the 168 most recent hours that have one, however long ago those hours were, so a machine off
// for a month loses nothing. Times are measured from the newest snapshot, never from the clock.

/** A remote's name in config.json (electron/history/config/configSchema.ts uses the same). */
export const REMOTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const REMOTE_NAME_RULE = 'a remote name is 1-64 letters, digits, dots, dashes or underscores, starting with a letter or digit';

export const retentionPolicySchema = z.strictObject({
  /** Every snapshot within this many hours of the newest one is kept. */
  keepAllHours: z
    .number()
    .int()
    .min(0)
    .max(24 * 366),
  /** The newest snapshot of each of this many most recent hours that have one. */
  hourly: z.number().int().min(0).max(1_000_000),
  /** The newest snapshot of each of this many most recent days that have one. */
  daily: z.number().int().min(0).max(1_000_000),
  /** The newest snapshot of each of this many most recent weeks that have one; null: every week. */
  weekly: z.number().int().min(0).max(1_000_000).nullable(),
  /** A version younger than this whose bytes git's object database does not hold is never pruned. */
  uncommittedDays: z.number().int().min(0).max(366),
  /** A blob no version names is deleted this long after it became unreferenced, not before. */
  graceMinutes: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60),
  /**
   * A remote's name: versions the policy thins are kept, their bytes moved to that remote (pushed,
   * then removed from this disk, fetched again when read) instead of deleted. null: deleted.
   */
  archiveToRemote: z.string().regex(REMOTE_NAME, REMOTE_NAME_RULE).nullable(),
});

export type RetentionPolicy = z.infer<typeof retentionPolicySchema>;

/** Every version for a day, then one per hour for a week, one per day for a month, one per week after that. */
export const DEFAULT_RETENTION: RetentionPolicy = {
  keepAllHours: 24,
  hourly: 7 * 24,
  daily: 30,
  weekly: null,
  uncommittedDays: 7,
  graceMinutes: 60,
  archiveToRemote: null,
};

/** 2 GiB of blobs per project. */
export const DEFAULT_HISTORY_BUDGET = 2 * 1024 ** 3;

/** Why a snapshot stays through a prune, strongest first. */
// otherMachines: a history that holds another machine's line of snapshots (a pull) is not thinned:
// folding one line's versions forward would change what the other line restores.
export const KEEP_REASONS = ['newest', 'pinned', 'otherMachines', 'uncommitted', 'policy'] as const;
export type KeepReason = (typeof KEEP_REASONS)[number];

/** The policy as sentences, in the order it applies. */
export function policyInWords(policy: RetentionPolicy): string[] {
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const words = [`Every version from the last ${plural(policy.keepAllHours, 'hour')} of work.`];
  if (policy.hourly > 0) words.push(`Then one per hour, for ${plural(policy.hourly, 'hour')} that had changes.`);
  if (policy.daily > 0) words.push(`Then one per day, for ${plural(policy.daily, 'day')} that had changes.`);
  if (policy.weekly === null) words.push('Then one per week, for as long as the budget allows.');
  else if (policy.weekly > 0) words.push(`Then one per week, for ${plural(policy.weekly, 'week')} that had changes.`);
  words.push(
    'Always kept: the newest version of every file (deleted ones too), pinned versions and snapshots, and ' +
      `in a git repository, versions from the last ${plural(policy.uncommittedDays, 'day')} whose contents git does not have (in no commit, not staged).`,
  );
  return words;
}
