import type { Writable } from 'node:stream';
import { visibleText } from '../../../shared/fileNameBytes.js';
import { writeChunk } from './writeChunk.js';

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
  const widths = columnWidths(columns, [rows]);
  const text = [headerLine(columns, widths), ...rows.map((row) => rowLine(columns, widths, row))].join('\n');
  out.write(`${text}\n`);
}

/**
 * The same table from rows read a page at a time, read twice: once for the columns' widths, once
 * to write them. Only one page is held at a time, and the text is what writeTable gives.
 */
export async function writeTablePages<T>(out: Writable, columns: Column<T>[], pages: () => Iterable<readonly T[]>): Promise<void> {
  const widths = columnWidths(columns, pages());
  await writeChunk(out, `${headerLine(columns, widths)}\n`);
  for (const page of pages()) {
    if (page.length > 0) await writeChunk(out, `${page.map((row) => rowLine(columns, widths, row)).join('\n')}\n`);
  }
}

function cellsOf<T>(columns: Column<T>[], row: T): string[] {
  return columns.map((c) => visibleText(c.value(row)));
}

function columnWidths<T>(columns: Column<T>[], pages: Iterable<readonly T[]>): number[] {
  const widths = columns.map((c) => c.header.length);
  for (const page of pages) {
    for (const row of page) {
      cellsOf(columns, row).forEach((cell, i) => {
        if (cell.length > widths[i]!) widths[i] = cell.length;
      });
    }
  }
  return widths;
}

function headerLine<T>(columns: Column<T>[], widths: number[]): string {
  return line(
    columns,
    widths,
    columns.map((c) => c.header),
  );
}

function rowLine<T>(columns: Column<T>[], widths: number[], row: T): string {
  return line(columns, widths, cellsOf(columns, row));
}

function line<T>(columns: Column<T>[], widths: number[], values: string[]): string {
  return values
    .map((v, i) => (i === values.length - 1 ? v : columns[i]!.align === 'right' ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
    .join('  ')
    .trimEnd();
}
