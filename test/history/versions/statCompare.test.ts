import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StatRow } from '../../../electron/history/db/historyIndex.js';
import { StatTable } from '../../../electron/history/statTable.js';
import { counter } from '../../../electron/history/trace.js';
import { statPath } from '../../../electron/history/walk/statPath.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { sha256, writeTree } from '../../helpers/writeTree.js';
import { notRacy, projectWithBaseline, type Project } from './versionsHelpers.js';

// A rescan compares each file's number lstat with the stat cache read once into typed arrays
// (statTable.ts): an unchanged file costs no walk entry and no stamp string, and anything the
// numbers do not vouch for is looked at again with a bigint lstat and compared to the nanosecond.

const FILES = 120;

function spec(): Record<string, string> {
  return Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`d${i % 7}/e${i % 3}/f${i}.txt`, `file ${i}\n`]));
}

/** What one rescan counted. */
async function rescanCounting({ engine, projectId }: Project) {
  const before = {
    lstat: counter('walk.lstat'),
    again: counter('walk.lstatAgain'),
    stamps: counter('stat.stamps'),
    reads: counter('statCache.reads'),
    rows: counter('statCache.rows'),
  };
  const result = await engine.rescan(projectId);
  return {
    result,
    lstat: counter('walk.lstat') - before.lstat,
    again: counter('walk.lstatAgain') - before.again,
    stamps: counter('stat.stamps') - before.stamps,
    reads: counter('statCache.reads') - before.reads,
    rows: counter('statCache.rows') - before.rows,
  };
}

/** The stat cache row the disk's own lstat gives, with one field changed. */
function plantRow(project: Project, path: string, change: Partial<StatRow>): void {
  const now = statPath(project.root, path)!;
  const hash = project.store.index.statCache.cachedStat(path)!.hash;
  project.store.index.statCache.writeStats([
    { path, type: now.type, size: now.size, mode: now.mode, mtimeNs: now.mtimeNs, ctimeNs: now.ctimeNs, ino: now.ino, hash, ...change },
  ]);
}

/** A decimal nanosecond stamp moved by `by` nanoseconds. */
function plus(ns: string, by: number): string {
  return String(BigInt(ns) + BigInt(by));
}

describe('the stat compare of a rescan', () => {
  it('reads the stat cache in one query and makes one lstat, no walk entry and no stamp string per unchanged file', async () => {
    const project = await projectWithBaseline(spec());
    const counted = await rescanCounting(project);
    expect(counted.result).toMatchObject({ changed: 0, hashed: 0, paths: FILES });
    expect(counted.lstat).toBe(FILES);
    expect(counted.again).toBe(0);
    expect(counted.stamps).toBe(0);
    expect(counted.reads).toBe(1);
    expect(counted.rows).toBe(FILES);
  });

  it('looks again, exactly, only at a file that changed: one more lstat and one stamp', async () => {
    const project = await projectWithBaseline(spec());
    writeFileSync(join(project.root, 'd0/e0/f0.txt'), 'file 0, longer now\n');
    const counted = await rescanCounting(project);
    expect(counted.result).toMatchObject({ changed: 1, hashed: 1 });
    expect(counted.lstat).toBe(FILES);
    expect(counted.again).toBe(1);
    expect(counted.stamps).toBe(1);
  });

  it('hashes a file whose row differs from the disk in any one field, and none whose row is the disk', async () => {
    const project = await projectWithBaseline(spec());
    const now = (path: string) => statPath(project.root, path)!;
    plantRow(project, 'd0/e0/f0.txt', {});
    plantRow(project, 'd1/e1/f1.txt', { size: now('d1/e1/f1.txt').size + 1 });
    plantRow(project, 'd2/e2/f2.txt', { mode: now('d2/e2/f2.txt').mode ^ 0o100 });
    plantRow(project, 'd3/e0/f3.txt', { ino: plus(now('d3/e0/f3.txt').ino, 1) });
    // A microsecond: four steps of the double a number lstat holds (244 ns today).
    plantRow(project, 'd4/e1/f4.txt', { mtimeNs: plus(now('d4/e1/f4.txt').mtimeNs, 1000) });
    plantRow(project, 'd5/e2/f5.txt', { ctimeNs: plus(now('d5/e2/f5.txt').ctimeNs, -1000) });
    plantRow(project, 'd6/e0/f6.txt', { type: 'symlink', target: 'f6.txt' });
    // An inode past 2^53: no number a Stats gives stands for it, so it is compared as text.
    plantRow(project, 'd0/e1/f7.txt', { ino: '18446744073709551557' });
    notRacy(project.store);
    const counted = await rescanCounting(project);
    expect(counted.result).toMatchObject({ changed: 0, hashed: 7 });
    // The planted rows were rewritten with the disk's stat: nothing is hashed again.
    notRacy(project.store);
    expect((await rescanCounting(project)).result).toMatchObject({ hashed: 0 });
  });

  it('finds a file rewritten with its size and exact mtime kept, and one replaced by another of the same size and mtime', async () => {
    const project = await projectWithBaseline(spec());
    const { root } = project;
    const touchLike = (file: string, reference: string) => execFileSync('touch', ['-r', reference, file]);
    // Same size, mtime put back to the nanosecond: only the ctime tells.
    const rewritten = join(root, 'd1/e1/f1.txt');
    const kept = join(tempDir(), 'kept');
    copyFileSync(rewritten, kept);
    touchLike(kept, rewritten);
    writeFileSync(rewritten, 'FILE 1\n');
    touchLike(rewritten, kept);
    // Another file, same size and mtime, renamed over: its inode and ctime tell.
    const replaced = join(root, 'd2/e2/f2.txt');
    const other = join(root, 'd2/other.tmp');
    writeFileSync(other, 'FILE 2\n');
    touchLike(other, replaced);
    renameSync(other, replaced);
    chmodSync(join(root, 'd3/e0/f3.txt'), 0o755);
    notRacy(project.store);
    const { result } = await rescanCounting(project);
    expect(result.changed).toBe(3);
    expect(project.store.index.versions.latestVersionOf('d3/e0/f3.txt')?.mode).toBe(0o755);
    expect(project.store.index.versions.latestVersionOf('d1/e1/f1.txt')?.hash).toBe(sha256('FILE 1\n'));
    expect(project.store.index.versions.latestVersionOf('d2/e2/f2.txt')?.hash).toBe(sha256('FILE 2\n'));
  });

  it('holds files dated before 1970 as unchanged (their stamps split as the kernel splits them)', async () => {
    const root = tempDir();
    writeTree(root, { 'old.txt': 'old', 'older.txt': 'older', 'now.txt': 'now' });
    execFileSync('touch', ['-d', '1960-01-01 00:00:00.123456789', join(root, 'old.txt')]);
    execFileSync('touch', ['-d', '@-0.5', join(root, 'older.txt')]);
    const project = await projectWithBaseline({});
    const opened = await project.engine.open(root);
    const next = { ...project, root, projectId: opened.projectId, store: project.engine.store(opened.projectId) };
    notRacy(next.store);
    const counted = await rescanCounting(next);
    expect(counted.result).toMatchObject({ changed: 0, hashed: 0, paths: 3 });
    expect(counted.stamps).toBe(0);
    // The exact compare reads the same seconds and nanoseconds as the kernel's (floor division).
    const table = next.store.index.statCache.statTable();
    for (const path of ['old.txt', 'older.txt']) expect(table.holdsStamp(table.rowOf(path)!, statPath(root, path)!)).toBe(true);
  });
});

describe('the stat table', () => {
  it('keeps an inode past 2^53 exactly, and a link by its target', () => {
    const table = new StatTable();
    table.add(['big', 0, 5, 0o644, 1, 2, 3, 4, '9007199254740993', null]);
    table.add(['link', 1, 3, 0o777, 1, 2, 3, 4, 12, 'there']);
    const stamp = { size: 5, mode: 0o644, mtimeNs: '1000000002', ctimeNs: '3000000004' };
    expect(table.holdsStamp(table.rowOf('big')!, { ...stamp, type: 'file', ino: '9007199254740993' })).toBe(true);
    expect(table.holdsStamp(table.rowOf('big')!, { ...stamp, type: 'file', ino: '9007199254740992' })).toBe(false);
    const link = { ...stamp, size: 3, mode: 0o777, ino: '12', type: 'symlink' as const };
    expect(table.holdsStamp(table.rowOf('link')!, { ...link, target: 'there' })).toBe(true);
    expect(table.holdsStamp(table.rowOf('link')!, { ...link, target: 'elsewhere' })).toBe(false);
  });
});
