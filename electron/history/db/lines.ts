import type { Sql } from './sql.js';

// Lines of history (docs/REMOTE.md "Two machines, one project"). Every snapshot belongs to the
// line of the machine that recorded it: line 0 is this machine's (snapshots.machine IS NULL), and
// each other machine a clone or a pull brought snapshots from has a line of its own (table lines,
// migration 10; every version carries its snapshot's line). A line may start from a snapshot of
// another line (its fork: a clone starts from the snapshot it materialized). A pulled snapshot
// takes the next local id, so ids alone mix the lines: every "state of the folder" query walks a
// line's segments instead, newest first: the line itself up to a snapshot, then the line it forked
// from up to the fork, and so on. Within one line, local ids grow with the snapshots' ids there.

/** This machine's own line. */
export const OWN_LINE = 0;

/** One stretch of a line: its snapshots up to `upTo` (a local snapshot id, inclusive). */
export interface Segment {
  line: number;
  upTo: number;
}

/** The line of a machine's snapshots (undefined or null: this machine's), made on first use. */
export function lineOfMachine(sql: Sql, machine: string | null | undefined): number {
  if (machine === null || machine === undefined) return OWN_LINE;
  const known = sql.get<{ id: number }>('SELECT id FROM lines WHERE machine = ?', machine);
  if (known) return known.id;
  return Number(sql.run('INSERT INTO lines (machine) VALUES (?)', machine).lastInsertRowid);
}

/**
 * Where a line starts: `fork` names the snapshot (its machine and its id there) it was cloned
 * from; `ownMachine` is this machine's id, whose snapshots are line 0 and keep their ids.
 */
export function setFork(sql: Sql, machine: string | null, fork: { machine: string; origin: number } | null, ownMachine: string): void {
  const line = lineOfMachine(sql, machine);
  if (!fork) {
    sql.run('UPDATE lines SET fork_line = NULL, fork_origin = NULL WHERE id = ?', line);
    return;
  }
  const forkLine = fork.machine === ownMachine ? OWN_LINE : lineOfMachine(sql, fork.machine);
  if (forkLine === line) return;
  writeFork(sql, line, { line: forkLine, origin: fork.origin });
}

/**
 * Sets where a line starts: `origin` is a local snapshot id when the fork's line is this
 * machine's, else the snapshot's id on the fork's machine (forkOf reads it back that way).
 */
export function writeFork(sql: Sql, line: number, fork: { line: number; origin: number }): void {
  sql.run('UPDATE lines SET fork_line = ?, fork_origin = ? WHERE id = ?', fork.line, fork.origin, line);
}

/** The line a snapshot is on; undefined for a snapshot that does not exist. */
export function lineOfSnapshot(sql: Sql, snapshotId: number): number | undefined {
  const row = sql.get<{ machine: string | null }>('SELECT machine FROM snapshots WHERE id = ?', snapshotId);
  if (!row) return undefined;
  return row.machine === null ? OWN_LINE : (sql.get<{ id: number }>('SELECT id FROM lines WHERE machine = ?', row.machine)?.id ?? OWN_LINE);
}

/** The machine whose snapshots make a line (null: this machine). */
export function machineOfLine(sql: Sql, line: number): string | null {
  return line === OWN_LINE ? null : (sql.get<{ machine: string | null }>('SELECT machine FROM lines WHERE id = ?', line)?.machine ?? null);
}

/** The segments of this machine's line, up to its newest snapshot: what the folder's state follows. */
export function ownSegments(sql: Sql): Segment[] {
  return segmentsFrom(sql, OWN_LINE, Number.MAX_SAFE_INTEGER);
}

/** The segments leading to a snapshot: its line up to it, then the lines it forked from. */
export function segmentsAt(sql: Sql, snapshotId: number): Segment[] {
  const line = lineOfSnapshot(sql, snapshotId);
  return line === undefined ? [] : segmentsFrom(sql, line, snapshotId);
}

function segmentsFrom(sql: Sql, line: number, upTo: number): Segment[] {
  const segments: Segment[] = [];
  const seen = new Set<number>();
  for (let at: Segment | undefined = { line, upTo }; at && !seen.has(at.line);) {
    seen.add(at.line);
    segments.push(at);
    at = forkOf(sql, at.line);
  }
  return segments;
}

/** The segment a line starts from: the fork's line up to the fork's local id (0 when none of it is here). */
function forkOf(sql: Sql, line: number): Segment | undefined {
  const row = sql.get<{ fork_line: number | null; fork_origin: number | null }>('SELECT fork_line, fork_origin FROM lines WHERE id = ?', line);
  if (!row || row.fork_line === null || row.fork_origin === null) return undefined;
  if (row.fork_line === OWN_LINE) return { line: OWN_LINE, upTo: row.fork_origin };
  // The fork's snapshot, or the newest of that machine before it when it is not here (yet).
  const machine = machineOfLine(sql, row.fork_line);
  const upTo = sql.get<{ id: number }>(
    'SELECT id FROM snapshots WHERE machine = ? AND machine_snapshot <= ? ORDER BY machine_snapshot DESC LIMIT 1',
    machine,
    row.fork_origin,
  )?.id;
  return { line: row.fork_line, upTo: upTo ?? 0 };
}

/** Whether a snapshot lies on the segments (its line's stretch holds it). */
export function onSegments(segments: readonly Segment[], line: number, snapshotId: number): boolean {
  return segments.some((s) => s.line === line && snapshotId <= s.upTo);
}

/**
 * The first answer found walking the segments newest first: what a line's newest version of
 * something is (its own stretch wins over the line it forked from).
 */
export function firstOnSegments<T>(segments: readonly Segment[], read: (segment: Segment) => T | undefined): T | undefined {
  for (const segment of segments) {
    const found = read(segment);
    if (found !== undefined) return found;
  }
  return undefined;
}
