import type { Writable } from 'node:stream';
import type { FileEntry, SnapshotInfo, VersionInfo } from '../../../shared/history.js';
import type { GitFileVersion, GitVersions } from '../../../shared/git.js';
import type { DeletedFile } from '../../../shared/contract/values.js';
import { originText } from '../../../shared/originText.js';
import { gitTitle, renamedText } from '../../../shared/versionWords.js';
import { writeTable, writeTablePages, type Column } from './table.js';
import { formatLocalTime, formatMode } from './words.js';
import { displayPath } from '../../../shared/fileNameBytes.js';

// The human form of every listing the CLI prints: a header row, local times, paths last.
// (--json prints the data itself; nothing here changes it.) Paths are shown with displayPath: a
// name that is not UTF-8 shows its bytes as \xNN, and a path argument takes that form back.

/** Every file, read a page at a time (twice: the columns' widths, then the rows). */
export function printFiles(out: Writable, pages: () => Iterable<readonly FileEntry[]>): Promise<void> {
  const columns: Column<FileEntry>[] = [
    { header: 'MODE', value: (f) => formatMode(f.mode) },
    { header: 'SIZE', value: (f) => String(f.size), align: 'right' },
    { header: 'HASH', value: (f) => f.hash.slice(0, 12) },
    { header: 'PATH', value: (f) => (f.target !== undefined ? `${displayPath(f.path)} -> ${displayPath(f.target)}` : displayPath(f.path)) },
  ];
  return writeTablePages(out, columns, pages);
}

/** A snapshot's empty folders, "path/" with their recorded mode ("-" when none was recorded). */
export function printEmptyFolders(out: Writable, folders: readonly { path: string; mode: number | null }[]): void {
  const columns: Column<{ path: string; mode: number | null }>[] = [
    { header: 'MODE', value: (f) => (f.mode === null ? '-' : formatMode(f.mode)) },
    { header: 'EMPTY FOLDER', value: (f) => `${displayPath(f.path)}/` },
  ];
  writeTable(out, columns, folders);
}

type SnapshotRow = Pick<SnapshotInfo, 'snapshotId' | 'kind' | 'at' | 'label' | 'files' | 'origin' | 'foldedInto'>;

/**
 * The snapshots as rows, read a page at a time; a checkpoint git's operation made that records no
 * file is the row before it, so it is left out (--json keeps it).
 */
export function printSnapshots(out: Writable, pages: () => Iterable<readonly SnapshotRow[]>): Promise<void> {
  const columns: Column<SnapshotRow>[] = [
    { header: 'SNAPSHOT', value: (s) => String(s.snapshotId), align: 'right' },
    { header: 'KIND', value: (s) => s.kind },
    { header: 'TIME', value: (s) => formatLocalTime(s.at) },
    { header: 'FILES', value: (s) => String(s.files), align: 'right' },
    { header: 'ORIGIN', value: (s) => originText(s.origin) },
    { header: 'LABEL', value: (s) => s.label ?? '' },
  ];
  return writeTablePages(out, columns, () => shownSnapshots(pages()));
}

function* shownSnapshots(pages: Iterable<readonly SnapshotRow[]>): Generator<SnapshotRow[]> {
  for (const page of pages) yield page.filter((s) => s.foldedInto === undefined);
}

type VersionRow = Pick<VersionInfo, 'versionId' | 'snapshotId' | 'kind' | 'at' | 'hash' | 'size' | 'mode' | 'origin' | 'label' | 'renamedFrom'>;

/**
 * A file's versions, oldest first, each by its number in the file's history (VERSION 1 is the
 * oldest, as the viewer numbers them); the one identical to the file on disk now marked
 * "current"; RESTORE WITH gives the id that --version takes.
 */
export function printVersions(out: Writable, versions: readonly VersionRow[], currentVersionId: number | null = null): void {
  const numberOf = versionNumbers(versions);
  const columns: Column<VersionRow>[] = [
    { header: 'VERSION', value: (v) => String(numberOf.get(v.versionId)), align: 'right' },
    { header: 'DISK', value: (v) => (v.versionId === currentVersionId ? 'current' : '') },
    { header: 'KIND', value: (v) => v.kind },
    { header: 'TIME', value: (v) => formatLocalTime(v.at) },
    { header: 'SIZE', value: (v) => (v.hash === null ? '-' : String(v.size)), align: 'right' },
    { header: 'MODE', value: (v) => (v.hash === null ? '-' : formatMode(v.mode)) },
    { header: 'HASH', value: (v) => (v.hash === null ? 'deleted' : v.hash.slice(0, 12)) },
    { header: 'RESTORE WITH', value: (v) => `--version ${v.versionId}` },
    { header: 'ORIGIN', value: (v) => originText(v.origin, (id) => (numberOf.has(id) ? `version ${numberOf.get(id)}` : 'an earlier version')) },
    { header: 'NOTE', value: versionNote },
  ];
  writeTable(out, columns, versions);
}

/** A rename ("Renamed from src/old.txt"), and what git did for a version git wrote ("Checked out `a1b2c3d` Fix the parser, on main"). */
function versionNote(v: VersionRow): string {
  const notes = [v.renamedFrom === null ? null : renamedText(v.renamedFrom), gitTitle(v)];
  return notes.filter((note) => note !== null).join('; ');
}

/** Each version's number in its file's history, the list given oldest first: 1 is the oldest. */
export function versionNumbers(oldestFirst: readonly Pick<VersionInfo, 'versionId'>[]): Map<number, number> {
  return new Map(oldestFirst.map((v, i) => [v.versionId, i + 1]));
}

export function printDeleted(out: Writable, files: readonly DeletedFile[]): void {
  const columns: Column<DeletedFile>[] = [
    { header: 'DELETED', value: (f) => formatLocalTime(f.deletedAt) },
    { header: 'RESTORE WITH', value: (f) => (f.lastVersionId === null ? '-' : `--version ${f.lastVersionId}`) },
    { header: 'PATH', value: (f) => displayPath(f.path) },
  ];
  writeTable(out, columns, files);
}

interface ProjectRow {
  id: string;
  root: string;
  lastSeen: string;
  pinned: boolean;
  lastOpenedAt: number | null;
}

export function printProjects(out: Writable, projects: readonly ProjectRow[]): void {
  const columns: Column<ProjectRow>[] = [
    { header: 'STATE', value: (p) => p.lastSeen },
    { header: 'PINNED', value: (p) => (p.pinned ? 'yes' : '') },
    { header: 'LAST OPENED', value: (p) => (p.lastOpenedAt === null ? '-' : formatLocalTime(p.lastOpenedAt)) },
    { header: 'ID', value: (p) => p.id },
    { header: 'FOLDER', value: (p) => p.root },
  ];
  writeTable(out, columns, projects);
}

export function printGitVersions(out: Writable, folder: string, path: string, result: GitVersions): void {
  if (!result.repository) return void out.write(`${folder} is not in a git repository.\n`);
  out.write(`On branch ${result.branch ?? '(detached HEAD)'}, commit ${result.commit ?? '(none yet)'}\n`);
  const rows: (GitFileVersion & { name: string })[] = [];
  if (result.head) rows.push({ name: 'HEAD', ...result.head });
  if (result.index) rows.push({ name: 'index', ...result.index });
  const columns: Column<GitFileVersion & { name: string }>[] = [
    { header: 'VERSION', value: (r) => r.name },
    { header: 'SIZE', value: (r) => String(r.size), align: 'right' },
    { header: 'MODE', value: (r) => r.mode.toString(8) },
    { header: 'BLOB', value: (r) => r.blob },
  ];
  if (rows.length > 0) writeTable(out, columns, rows);
  if (!result.head) out.write(`${displayPath(path)} is not in HEAD.\n`);
}
