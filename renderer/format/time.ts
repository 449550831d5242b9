// Times shown two ways, in the locale's words and format (Intl, the system's locale): relative
// ("3 minutes ago") for scanning a list, exact for the record. Every date the viewer shows comes
// from here; a relative time on screen keeps counting through components/RelativeTime.tsx.

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const exact = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

export function formatRelative(at: number, now = Date.now()): string {
  let value = (at - now) / 1000;
  if (Math.abs(value) < 5) return 'just now';
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit);
    value /= size;
  }
  return relative.format(Math.round(value), 'year');
}

export function formatExact(at: number): string {
  return exact.format(new Date(at));
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  if (seconds < 1) return 'less than a second';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'full' });
const hourStart = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const hourEnd = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

/** An hour or a day of the time scrubber: "Tuesday, March 3, 2026", "Mar 3, 2026, 2:00 PM – 3:00 PM". */
export function formatPeriod(start: number, bucket: 'hour' | 'day'): string {
  if (bucket === 'day') return day.format(new Date(start));
  return `${hourStart.format(new Date(start))} – ${hourEnd.format(new Date(start + 3_600_000))}`;
}
