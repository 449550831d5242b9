import { describe, expect, it, onTestFinished } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallName, RequestOf, ResponseOf } from '../../../shared/contract.js';
import type { HindsightErrorData } from '../../../shared/errors.js';
import type { Progress } from '../../../shared/progress.js';
import { createDispatcher } from '../../../electron/history/dispatcher/dispatcher.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { readTree, seededBytes, writeTree } from '../../helpers/writeTree.js';

// The viewer's calls for issue 15 through the real dispatcher: exportHistory to a file,
// importHistory from it on another data folder, materializeSnapshot into a new folder, each with
// progress events in bytes under its operationId; a bad request is refused by the contract.

function viewerOf(engine: HistoryEngine) {
  const dispatcher = createDispatcher(engine, { watch: false });
  onTestFinished(async () => {
    await dispatcher.close();
    engine.close();
  });
  let id = 0;
  return async <N extends CallName>(call: N, args: RequestOf<N>): Promise<{ ok: true; value: ResponseOf<N> } | { ok: false; error: HindsightErrorData }> => {
    const answer = await dispatcher.handle({ kind: 'call', id: ++id, call, args });
    return answer.result as { ok: true; value: ResponseOf<N> } | { ok: false; error: HindsightErrorData };
  };
}

describe('the bundle calls of the viewer', () => {
  it('export, import on another data folder and open a snapshot as a new folder, with progress in bytes', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a', 'big.bin': seededBytes(9, 1_500_000), 'x/run.sh': { data: 'r', mode: 0o750 } });
    const engineA = new HistoryEngine(tempDir('hindsight-data-'));
    const a = viewerOf(engineA);
    const opened = await a('openProject', { path: root });
    if (!opened.ok) throw new Error(opened.error.message);
    const { projectId } = opened.value;
    const progress: Progress[] = [];
    engineA.events.on((e) => e.event === 'progress' && e.payload.operationId === 'export-1' && progress.push(e.payload));
    const file = join(tempDir(), 'h.hsb');
    const exported = await a('exportHistory', { projectId, to: file, operationId: 'export-1' });
    expect(exported).toMatchObject({ ok: true, value: { to: file, snapshots: 1, blobs: 3, bytes: 1_500_002 } });
    expect(progress.at(-1)).toMatchObject({ operation: 'export', phase: 'done', bytesDone: 1_500_002, bytesTotal: 1_500_002 });

    const engineB = new HistoryEngine(tempDir('hindsight-data-'));
    const b = viewerOf(engineB);
    const moved = tempDir();
    const imported = await b('importHistory', { from: file, as: moved, operationId: 'import-1' });
    expect(imported).toMatchObject({ ok: true, value: { root: moved, added: 1, blobsWritten: 3 } });
    const into = join(tempDir(), 'as-new');
    const written = await b('materializeSnapshot', { projectId: engineB.locate(moved), snapshotId: 1, into, operationId: 'open-1' });
    expect(written).toMatchObject({ ok: true, value: { into, files: 3, bytes: 1_500_002 } });
    expect(readTree(into)).toEqual(readTree(root));

    mkdirSync(join(into, 'more'));
    writeFileSync(join(into, 'more/x'), 'x');
    expect(await b('materializeSnapshot', { projectId: engineB.locate(moved), snapshotId: 1, into })).toMatchObject({
      ok: false,
      error: { code: 'FOLDER_NOT_EMPTY' },
    });
    expect(await b('importHistory', { from: '' })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(await a('exportHistory', { projectId, to: file, since: 0 } as RequestOf<'exportHistory'>)).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST' },
    });
  });
});
