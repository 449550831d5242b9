import type { Sql } from './sql.js';
import { OWN_LINE, ownSegments, segmentsAt, firstOnSegments, type Segment } from './lines.js';
import { baselineId } from './snapshotQueries.js';

// Per-folder summaries of this machine's line as it stands now (migration 11): for every folder,
// how many paths under it (at any depth) are files, how many are deletions, and how many files
// differ from the baseline. A level of the tree reads its child folders' figures from here and
// its own direct files from versions_by_path, so the root of a 100,000-file project reads its
// few direct files, not every path.
//
// The summaries must never disagree with the fold of the newest versions (folderLevel.ts
// foldedFolderLevel, the reference). Two mechanisms keep that:
// - commitSnapshot keeps them up to date, in its own transaction, for a snapshot of this
//   machine's line (every save, restore and first copy): the old and new state of each path it
//   records moves its folders' figures (applyToSummaries).
// - Every other write that can change the fold (a prune deleting or moving versions, a pull or an
//   import adding versions of any line, a fork set, a snapshot's kind changed) marks them stale
//   through triggers in the database itself, whichever process or code path writes. The next
//   level read rebuilds them with the fold, once (rebuildFolderSummaries), or, where it cannot
//   write, answers with the fold.
// The baseline they compare with is kept beside them: another baseline (a prune promoting one)
// makes them stale too.

export const FOLDER_SUMMARIES_SCHEMA = `
  CREATE TABLE folder_summaries (
    folder TEXT PRIMARY KEY,
    parent TEXT NOT NULL,
    files INTEGER NOT NULL,
    deleted INTEGER NOT NULL,
    changed INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX folder_summaries_by_parent ON folder_summaries(parent);
  CREATE TABLE folder_summary_state (id INTEGER PRIMARY KEY CHECK (id = 1), fresh INTEGER NOT NULL, baseline INTEGER);
  INSERT INTO folder_summary_state (id, fresh, baseline) VALUES (1, 0, NULL);
  ${staleTrigger('versions_insert', 'AFTER INSERT ON versions')}
  ${staleTrigger('versions_delete', 'AFTER DELETE ON versions')}
  ${staleTrigger('versions_update', 'AFTER UPDATE OF snapshot_id, path, hash, type, line ON versions')}
  ${staleTrigger('snapshots_delete', 'AFTER DELETE ON snapshots')}
  ${staleTrigger('snapshots_update', 'AFTER UPDATE OF kind, machine ON snapshots')}
  ${staleTrigger('lines_insert', 'AFTER INSERT ON lines')}
  ${staleTrigger('lines_delete', 'AFTER DELETE ON lines')}
  ${staleTrigger('lines_update', 'AFTER UPDATE ON lines')}
`;

function staleTrigger(name: string, when: string): string {
  // WHEN: once stale, a write pays one read of a one-row table, not an update.
  return `CREATE TRIGGER folder_summaries_stale_${name} ${when}
    WHEN (SELECT fresh FROM folder_summary_state WHERE id = 1) = 1
    BEGIN UPDATE folder_summary_state SET fresh = 0 WHERE id = 1; END;`;
}

/** One folder's figures: paths under it that are files, deletions, files not as in the baseline. */
export interface FolderSummary {
  folder: string;
  files: number;
  deleted: number;
  changed: number;
}

/** A path's state as the fold sees it: absent, a deletion (hash null), or a file. */
type PathState = { hash: string | null } | undefined;

/** The folder holding a path ('' for the top). */
function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** Whether the summaries answer for now against `baseline` (undefined: no baseline). */
export function summariesFresh(sql: Sql, baseline: number | undefined): boolean {
  const state = sql.get<{ fresh: number; baseline: number | null }>('SELECT fresh, baseline FROM folder_summary_state WHERE id = 1');
  return state !== undefined && state.fresh === 1 && state.baseline === (baseline ?? null);
}

/** The child folders of `folder` with their figures (folders holding nothing are never kept). */
export function childSummaries(sql: Sql, folder: string): FolderSummary[] {
  return sql.all<FolderSummary>('SELECT folder, files, deleted, changed FROM folder_summaries WHERE parent = ?', folder);
}

/** What a path adds to each of its folders. */
function contribution(state: PathState, base: PathState): { files: number; deleted: number; changed: number } {
  if (state === undefined) return { files: 0, deleted: 0, changed: 0 };
  if (state.hash === null) return { files: 0, deleted: 1, changed: 0 };
  // As the fold marks it: a file is changed unless the baseline holds the same bytes at that path.
  return { files: 1, deleted: 0, changed: base !== undefined && base.hash === state.hash ? 0 : 1 };
}

/** Figures per folder, added up in memory, then written once per folder. */
class Deltas {
  readonly byFolder = new Map<string, { files: number; deleted: number; changed: number }>();

  add(path: string, figures: { files: number; deleted: number; changed: number }, sign: 1 | -1): void {
    if (figures.files === 0 && figures.deleted === 0 && figures.changed === 0) return;
    for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
      const folder = path.slice(0, slash);
      let d = this.byFolder.get(folder);
      if (!d) this.byFolder.set(folder, (d = { files: 0, deleted: 0, changed: 0 }));
      d.files += sign * figures.files;
      d.deleted += sign * figures.deleted;
      d.changed += sign * figures.changed;
    }
  }

  write(sql: Sql): void {
    for (const [folder, d] of this.byFolder) {
      if (d.files === 0 && d.deleted === 0 && d.changed === 0) continue;
      sql.run(
        `INSERT INTO folder_summaries (folder, parent, files, deleted, changed) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (folder) DO UPDATE SET files = files + excluded.files, deleted = deleted + excluded.deleted, changed = changed + excluded.changed`,
        folder,
        parentOf(folder),
        d.files,
        d.deleted,
        d.changed,
      );
    }
    sql.run('DELETE FROM folder_summaries WHERE files = 0 AND deleted = 0');
  }
}

/**
 * A path's newest version along the segments, the one the fold chooses (on a line the newest
 * snapshot's version is also the greatest id). Read from the end of versions_by_path: a MAX(id)
 * over the range would read every version of the path, so each save of a file with a long
 * history would cost as much as its history.
 */
function newestHash(sql: Sql, path: string, segments: readonly Segment[]): PathState {
  return firstOnSegments(segments, (s) =>
    sql.get<{ hash: string | null }>(
      'SELECT hash FROM versions WHERE path = ? AND line = ? AND snapshot_id <= ? ORDER BY snapshot_id DESC, id DESC LIMIT 1',
      path,
      s.line,
      s.upTo,
    ),
  );
}

/** What commitSnapshot reads before it writes: each recorded path's state before the snapshot. */
export interface SummariesBefore {
  before: Map<string, PathState>;
  /** No folder summarized and no path on this line: the first snapshot may set the baseline. */
  empty: boolean;
}

/**
 * Read by commitSnapshot before it writes a snapshot's versions: whether the summaries are up to
 * date now, and each path's state before the snapshot (what its folders' figures hold now).
 * Undefined: nothing to keep (stale, another line, or the snapshot moves the baseline).
 */
export function summariesBeforeCommit(sql: Sql, line: number, paths: readonly string[]): SummariesBefore | undefined {
  if (line !== OWN_LINE) return undefined;
  const state = sql.get<{ fresh: number }>('SELECT fresh FROM folder_summary_state WHERE id = 1');
  if (!state || state.fresh !== 1) return undefined;
  const segments = ownSegments(sql);
  const before = new Map<string, PathState>();
  // This line holds no path yet (a first copy): no lookup per path.
  const empty = segments.length === 1 && sql.get('SELECT 1 FROM versions WHERE line = ? LIMIT 1', OWN_LINE) === undefined;
  for (const path of paths) if (!before.has(path)) before.set(path, empty ? undefined : newestHash(sql, path, segments));
  return { before, empty };
}

/**
 * Called by commitSnapshot after it wrote snapshot `id` of this machine's line, inside its
 * transaction: each recorded path moves from its old state to its new one in every folder above
 * it. The baseline must be the one the summaries were made with, or this snapshot itself when
 * nothing was summarized before (a first copy); otherwise they stay stale.
 */
export function applyToSummaries(sql: Sql, id: number, { before, empty }: SummariesBefore, versions: readonly { path: string; hash: string | null }[]): void {
  const state = sql.get<{ baseline: number | null }>('SELECT baseline FROM folder_summary_state WHERE id = 1')!;
  const baseline = baselineId(sql);
  if ((baseline ?? null) !== state.baseline && !(empty && baseline === id)) return;
  const baseSegments = baseline === undefined || baseline === id ? undefined : segmentsAt(sql, baseline);
  const now = new Map<string, PathState>();
  for (const v of versions) now.set(v.path, { hash: v.hash });
  const deltas = new Deltas();
  for (const [path, after] of now) {
    const base: PathState = baseline === id ? after : baseSegments ? newestHash(sql, path, baseSegments) : undefined;
    deltas.add(path, contribution(before.get(path), base), -1);
    deltas.add(path, contribution(after, base), 1);
  }
  deltas.write(sql);
  sql.run('UPDATE folder_summary_state SET fresh = 1, baseline = ? WHERE id = 1', baseline ?? null);
}

/**
 * Whether a first snapshot written without its versions in hand (a baseline published from its
 * staged rows, stagedBaseline.ts) can keep the summaries: they are up to date and this line holds
 * no path yet. Read before the snapshot's versions are written (their insert marks them stale).
 */
export function summariesKeptByFirstSnapshot(sql: Sql, line: number): boolean {
  return summariesBeforeCommit(sql, line, [])?.empty === true;
}

/**
 * The summaries of a first snapshot `id` that is the baseline: every path a file, none changed
 * (each is as in the baseline). `paths` is read once, as it comes; only the folders are held.
 */
export function summarizeFirstSnapshot(sql: Sql, id: number, paths: Iterable<string>): void {
  if (baselineId(sql) !== id) return;
  const deltas = new Deltas();
  for (const path of paths) deltas.add(path, { files: 1, deleted: 0, changed: 0 }, 1);
  deltas.write(sql);
  sql.run('UPDATE folder_summary_state SET fresh = 1, baseline = ? WHERE id = 1', id);
}

/** The newest version of each path along the segments: the fold's input. */
export type NewestRows = (segments: readonly Segment[]) => { path: string; hash: string | null }[];

/** The summaries made again from the fold of every newest version (and the baseline's). */
export function rebuildFolderSummaries(sql: Sql, newest: NewestRows): void {
  const baseline = baselineId(sql);
  const base = new Map<string, PathState>();
  if (baseline !== undefined) for (const row of newest(segmentsAt(sql, baseline))) base.set(row.path, { hash: row.hash });
  const deltas = new Deltas();
  for (const row of newest(ownSegments(sql))) deltas.add(row.path, contribution({ hash: row.hash }, base.get(row.path)), 1);
  sql.run('DELETE FROM folder_summaries');
  deltas.write(sql);
  sql.run('UPDATE folder_summary_state SET fresh = 1, baseline = ? WHERE id = 1', baseline ?? null);
}
