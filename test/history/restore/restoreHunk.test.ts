import { describe, expect, it, onTestFinished } from 'vitest';
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallName, RequestOf, ResponseOf } from '../../../shared/contract.js';
import { diffTexts } from '../../../shared/diff/textDiff.js';
import type { HindsightErrorData } from '../../../shared/errors.js';
import { createDispatcher } from '../../../electron/history/dispatcher/dispatcher.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// "Restore this change": one block of the diff between a version and the file on disk goes back
// into the file, through the viewer's own call (the real dispatcher and its contract), recorded
// first and undone like any restore; a file changed since the comparison is never overwritten.

const FIRST = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n';
const NOW = 'one\nTWO\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\nELEVEN\ntwelve\nthirteen\n';

async function viewerOn(files: Parameters<typeof writeTree>[1]) {
  const root = tempDir();
  writeTree(root, files);
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  const dispatcher = createDispatcher(engine, { watch: false });
  onTestFinished(async () => {
    await dispatcher.close();
    engine.close();
  });
  let id = 0;
  const viewer = async <N extends CallName>(
    call: N,
    args: RequestOf<N>,
  ): Promise<{ ok: true; value: ResponseOf<N> } | { ok: false; error: HindsightErrorData }> => {
    const answer = await dispatcher.handle({ kind: 'call', id: ++id, call, args });
    return answer.result as { ok: true; value: ResponseOf<N> } | { ok: false; error: HindsightErrorData };
  };
  const opened = await viewer('openProject', { path: root });
  if (!opened.ok) throw new Error(opened.error.message);
  return { root, engine, viewer, projectId: opened.value.projectId };
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('restoring one change of a diff', () => {
  it('writes back only that block, keeps the file mode, records first and is undone like a restore', async () => {
    const { root, engine, viewer, projectId } = await viewerOn({ 'notes.txt': { data: FIRST, mode: 0o640 } });
    writeFileSync(join(root, 'notes.txt'), NOW);
    chmodSync(join(root, 'notes.txt'), 0o600);
    const first = engine.versions(projectId, 'notes.txt')[0]!;
    const { blocks } = diffTexts(FIRST, NOW);
    expect(blocks).toHaveLength(3);

    const answer = await viewer('restoreHunk', { projectId, path: 'notes.txt', versionId: first.versionId, hunk: blocks[0]!, diskHash: sha(NOW) });
    if (!answer.ok) throw new Error(answer.error.message);
    // Only "TWO" went back; the other blocks (ELEVEN, thirteen) are as they were.
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe(NOW.replace('TWO', 'two'));
    expect(statSync(join(root, 'notes.txt')).mode & 0o7777).toBe(0o600);
    const versions = engine.versions(projectId, 'notes.txt');
    expect(versions.map((v) => v.kind)).toEqual(['baseline', 'change', 'restore']);
    expect(engine.log(projectId).at(-1)?.label).toBe('Restored one change of notes.txt from version 1');

    // Undo: the unsaved contents come back exactly.
    expect(answer.value.undoVersionId).toBe(versions[1]!.versionId);
    await engine.restoreFile(projectId, 'notes.txt', answer.value.undoVersionId!);
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe(NOW);
  });

  it('restores the last block, the end of a file without its final newline included', async () => {
    const { root, engine, viewer, projectId } = await viewerOn({ 'a.txt': 'x\ny\nlast' });
    writeFileSync(join(root, 'a.txt'), 'x\ny\nlast\nmore\n');
    const first = engine.versions(projectId, 'a.txt')[0]!;
    const [block] = diffTexts('x\ny\nlast', 'x\ny\nlast\nmore\n').blocks;
    const answer = await viewer('restoreHunk', { projectId, path: 'a.txt', versionId: first.versionId, hunk: block!, diskHash: sha('x\ny\nlast\nmore\n') });
    if (!answer.ok) throw new Error(answer.error.message);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('x\ny\nlast');
  });

  it('refuses with FILE_CHANGED when the file no longer holds the compared bytes, and writes nothing', async () => {
    const { root, engine, viewer, projectId } = await viewerOn({ 'notes.txt': FIRST });
    writeFileSync(join(root, 'notes.txt'), NOW);
    const first = engine.versions(projectId, 'notes.txt')[0]!;
    const [block] = diffTexts(FIRST, NOW).blocks;
    writeFileSync(join(root, 'notes.txt'), `${NOW}typed meanwhile\n`);
    const answer = await viewer('restoreHunk', { projectId, path: 'notes.txt', versionId: first.versionId, hunk: block!, diskHash: sha(NOW) });
    expect(answer).toMatchObject({ ok: false, error: { code: 'FILE_CHANGED' } });
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe(`${NOW}typed meanwhile\n`);
    expect(engine.versions(projectId, 'notes.txt')).toHaveLength(1);
  });

  it('refuses a block that is not one of the diff, a version of another file, a path outside and a bad range', async () => {
    const { root, engine, viewer, projectId } = await viewerOn({ 'notes.txt': FIRST, 'other.txt': 'o\n' });
    writeFileSync(join(root, 'notes.txt'), NOW);
    const first = engine.versions(projectId, 'notes.txt')[0]!;
    const other = engine.versions(projectId, 'other.txt')[0]!;
    const diskHash = sha(NOW);
    const ask = (args: Partial<RequestOf<'restoreHunk'>>) =>
      viewer('restoreHunk', {
        projectId,
        path: 'notes.txt',
        versionId: first.versionId,
        hunk: { aStart: 1, aEnd: 2, bStart: 1, bEnd: 2 },
        diskHash,
        ...args,
      } as RequestOf<'restoreHunk'>);
    expect(await ask({ hunk: { aStart: 0, aEnd: 12, bStart: 0, bEnd: 13 } })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(await ask({ versionId: other.versionId })).toMatchObject({ ok: false, error: { code: 'VERSION_NOT_FOUND' } });
    expect(await ask({ path: '../notes.txt' })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(await ask({ hunk: { aStart: 3, aEnd: 2, bStart: 1, bEnd: 2 } })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(await ask({ diskHash: 'not a hash' })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe(NOW);
    // The real block works after all of them.
    expect(await ask({})).toMatchObject({ ok: true });
  });
});
