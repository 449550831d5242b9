import type { Writable } from 'node:stream';
import type { Progress } from '../../shared/progress.js';
import { progressFraction } from '../../shared/progress.js';

// A one-line progress bar on stderr, redrawn in place, only when stderr is a terminal.

const WIDTH = 28;

export function progressBar(stream: Writable & { isTTY?: boolean }): (progress: Progress) => void {
  if (!stream.isTTY) return () => {};
  return (p) => {
    const fraction = progressFraction(p);
    const filled = Math.round(fraction * WIDTH);
    const bar = `${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}`;
    const line = `${p.operation} ${p.phase.padEnd(7)} [${bar}] ${p.filesDone}/${p.filesTotal} files ${formatBytes(p.bytesDone)}/${formatBytes(p.bytesTotal)}`;
    stream.write(`\r${line}\x1b[K${p.phase === 'done' ? '\n' : ''}`);
  };
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
