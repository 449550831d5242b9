import { UsageError } from './command.js';

// A --since TIME as typed: a date or a date and time (2026-03-14, 2026-03-14T09:30, local time
// unless it says otherwise), or how long ago (90s, 30m, 2h, 7d, 2w). Answers milliseconds since
// the epoch. A date that does not exist (2026-13-45, 2026-02-30) is refused: JavaScript's dates
// would quietly roll it over into another month.

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export function parseSince(text: string, now = Date.now()): number {
  const typed = text.trim();
  const ago = /^(\d+)\s*([smhdw])$/.exec(typed);
  if (ago) return now - Number(ago[1]) * UNITS[ago[2]!]!;
  const parts = DATE_TIME.exec(typed);
  if (!parts || !exists(parts)) throw new UsageError(`--since takes a date (2026-03-14, 2026-03-14T09:30) or a time ago (30m, 2h, 7d), not ${text}`);
  const [, year, month, day, hour] = parts;
  // A bare date is midnight local time (Date.parse would read it as UTC).
  const at = hour === undefined ? new Date(Number(year), Number(month) - 1, Number(day)).getTime() : Date.parse(typed.replace(' ', 'T'));
  if (!Number.isFinite(at) || at < 0) throw new UsageError(`--since takes a date from 1970 on, not ${text}`);
  return at;
}

/** Whether each field of a date and time is within its range (the day within its month). */
function exists([, year, month, day, hour = '0', minute = '0', second = '0']: RegExpExecArray): boolean {
  const m = Number(month);
  const daysInMonth = new Date(Date.UTC(Number(year), m, 0)).getUTCDate();
  return m >= 1 && m <= 12 && Number(day) >= 1 && Number(day) <= daysInMonth && Number(hour) <= 23 && Number(minute) <= 59 && Number(second) <= 59;
}
