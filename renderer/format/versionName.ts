import { formatExact } from './time.js';

// How the viewer names one version of a file, everywhere (list, header, compare, dialogs, toasts):
// "Version N" with its time. Internal ids never reach a person; while N is not known yet (a long
// history whose count is still on its way) the time alone names it.

/** "Version 3", or "Version of 4 Dec 2026, 21:09:50" while its number is not known. */
export function versionName(n: number | undefined, at: number): string {
  return n === undefined ? `Version of ${formatExact(at)}` : `Version ${n}`;
}

/** "Version 3 (4 Dec 2026, 21:09:50)": the number and the time, for a toast or a dialog. */
export function versionWithTime(n: number | undefined, at: number): string {
  return n === undefined ? versionName(n, at) : `Version ${n} (${formatExact(at)})`;
}
