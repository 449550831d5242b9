// Sizes as people read them: 1,024 bytes is 1.0 KB here as in every file manager on the desktop.

const UNITS = ['KB', 'MB', 'GB', 'TB'];

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes / 1024;
  let unit = 0;
  // "1000 KB" reads as a typo for 1 MB: a value that would show four digits goes up a unit.
  while (value >= 999.5 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${UNITS[unit]}`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** A count with its noun: "1 file", "4,846 files". */
export function plural(n: number, noun: string): string {
  return `${formatCount(n)} ${n === 1 ? noun : `${noun}s`}`;
}
