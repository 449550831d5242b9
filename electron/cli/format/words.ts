// Numbers and counts as a person reads them: "1 file", "4,846 files", "12.5 MiB", local times.

// Intl's number formatter costs about 20 ms to build on a cold start, more than a small command's
// whole work: whole numbers (every count) are grouped by hand, anything else by Intl, made on first use.
let grouping: Intl.NumberFormat | undefined;

/** A whole number with thousands separators: 4,846. */
export function formatNumber(n: number): string {
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) {
    const digits = String(Math.abs(n));
    let out = '';
    for (let end = digits.length; end > 0; end -= 3) out = (end > 3 ? ',' : '') + digits.slice(Math.max(0, end - 3), end) + out;
    return n < 0 ? `-${out}` : out;
  }
  return (grouping ??= new Intl.NumberFormat('en-US')).format(n);
}

/** "1 file", "0 files", "4,846 files"; `plural` for words that do not take an s. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatNumber(n)} ${n === 1 ? singular : plural}`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return countOf(n, 'byte');
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A duration: "850 ms", "1.3 s", "2 min 5 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A moment in the local time zone, the way `ls` and `git log --date=iso-local` show it: 2025-03-14 09:26:53. */
export function formatLocalTime(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** A file mode as the four octal digits `chmod` takes: 0644. */
export function formatMode(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}
