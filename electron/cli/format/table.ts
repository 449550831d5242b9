import type { Writable } from 'node:stream';
import { visibleText } from '../../../shared/fileNameBytes.js';
import { maxOf } from '../../../shared/largeArrays.js';

// Listings as a table: a header row, then one row per item, columns padded to line up. The last
// column (usually a path, which may hold spaces) is never padded, so `cut` and `awk '{print $NF}'`
// style reading still works for everything before it. Every cell is shown with visibleText: a label,
// a path or a machine's name from a bundle or a remote can never act on the terminal.

export interface Column<T> {
  header: string;
  value: (row: T) => string;
  /** Numbers line up on the right. */
  align?: 'left' | 'right';
}

export function writeTable<T>(out: Writable, columns: Column<T>[], rows: readonly T[]): void {
  const cells = rows.map((row) => columns.map((c) => visibleText(c.value(row))));
  const widths = columns.map((c, i) =>
    maxOf(
      cells.map((r) => r[i]!.length),
      c.header.length,
    ),
  );
  const line = (values: string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : columns[i]!.align === 'right' ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const text = [line(columns.map((c) => c.header)), ...cells.map(line)].join('\n');
  out.write(`${text}\n`);
}
