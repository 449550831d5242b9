import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordPaths } from '../../../electron/history/versions/recordPaths.js';
import { HindsightError } from '../../../shared/errors.js';
import { projectWithBaseline, type Project } from './versionsHelpers.js';

// The edges of a history for a selection that a replayed git history does not reach: a start in an
// older version (the viewer's selection is in the version it shows), a file deleted and made
// again (its lines began with the new file), and requests that cannot be answered, refused with
// a typed error.

const numbered = (n: number, tag = 'line') => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}\n`).join('');

async function record(project: Project, text: string | null): Promise<number> {
  const file = join(project.root, 'f.txt');
  if (text === null) rmSync(file);
  else writeFileSync(file, text);
  await recordPaths(project.store, ['f.txt'], { kind: 'change', label: null });
  return project.engine.versions(project.projectId, 'f.txt').at(-1)!.versionId;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    if (error instanceof HindsightError) return error.code;
    throw error;
  }
}

describe('history for a selection', () => {
  it('starts in the version asked for, and ends where a deleted file was made again', async () => {
    const project = await projectWithBaseline({ 'f.txt': numbered(6) });
    const first = project.engine.versions(project.projectId, 'f.txt')[0]!.versionId;
    const changed = await record(project, numbered(6).replace('line 3\n', 'three\n'));
    await record(project, null);
    const again = await record(project, numbered(6).replace('line 3\n', 'third\n'));
    const later = await record(project, numbered(6).replace('line 3\n', 'third\n').replace('line 5\n', 'five\n'));

    // From the newest: lines 2-4 changed only where the file was made again (the deletion ends it).
    const newest = await project.engine.lineHistory(project.projectId, 'f.txt', { from: 2, to: 4 });
    expect(newest.map((v) => v.versionId)).toEqual([again]);
    expect(newest[0]).toMatchObject({ linesBefore: null, changes: [{ beforeLine: 1, removed: [], afterLine: 2, added: ['line 2\n', 'third\n', 'line 4\n'] }] });
    expect((await project.engine.lineHistory(project.projectId, 'f.txt', { from: 5, to: 5 })).map((v) => v.versionId)).toEqual([again, later]);

    // From the version before the deletion: its own change and the first copy.
    const older = await project.engine.lineHistory(project.projectId, 'f.txt', { from: 3, to: 3 }, changed);
    expect(older.map((v) => v.versionId)).toEqual([first, changed]);
    expect(older[1]!.changes).toEqual([{ beforeLine: 3, removed: ['line 3\n'], afterLine: 3, added: ['three\n'] }]);
  });

  it('refuses a deletion, an unknown version, a file without history and lines it does not have', async () => {
    const project = await projectWithBaseline({ 'f.txt': numbered(3), 'g.txt': 'x\n' });
    const deletion = await record(project, null);
    const ask = (lines: { from: number; to: number }, path = 'f.txt', versionId?: number) =>
      codeOf(project.engine.lineHistory(project.projectId, path, lines, versionId));
    expect(await ask({ from: 1, to: 1 })).toBe('BAD_REQUEST');
    expect(await ask({ from: 1, to: 1 }, 'f.txt', deletion + 100)).toBe('VERSION_NOT_FOUND');
    expect(await ask({ from: 1, to: 1 }, 'nothing.txt')).toBe('NOT_FOUND');
    expect(await ask({ from: 1, to: 2 }, 'g.txt')).toBe('BAD_REQUEST');
    expect(await ask({ from: 0, to: 1 }, 'g.txt')).toBe('BAD_REQUEST');
    expect(await ask({ from: 1, to: 1 }, 'g.txt')).toBe('no error');
  });
});
