import { UsageError } from './command.js';

// A --since TIME as typed: a date or a date and time (2026-03-14, 2026-03-14T09:30, local time
// unless it says otherwise), or how long ago (90s, 30m, 2h, 7d, 2w). Answers milliseconds since
// the epoch.

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

export function parseSince(text: string, now = Date.now()): number {
  const ago = /^(\d+)\s*([smhdw])$/.exec(text.trim());
  if (ago) return now - Number(ago[1]) * UNITS[ago[2]!]!;
  // A bare date is midnight local time (Date.parse would read it as UTC).
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  const at = day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])).getTime() : Date.parse(text);
  if (!Number.isFinite(at) || at < 0) throw new UsageError(`--since takes a date (2026-03-14, 2026-03-14T09:30) or a time ago (30m, 2h, 7d), not ${text}`);
  return at;
}
