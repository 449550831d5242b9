import { describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { blobPath } from '../../../electron/history/store/storeLayout.js';
import { cliJson, runCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { sha256, writeTree } from '../../helpers/writeTree.js';

describe('verify', () => {
  it('reports missing and corrupt blobs with the versions that name them, and exits 1', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'alpha', 'b.txt': 'beta', 'copy-of-b.txt': 'beta', 'c.txt': 'gamma' });
    const dataDir = tempDir('hindsight-data-');
    await cliJson(['open', root, '--data-dir', dataDir]);
    expect(await cliJson(['verify', root, '--data-dir', dataDir])).toEqual({
      blobs: 3,
      ok: true,
      missing: [],
      corrupt: [],
      repaired: [],
      remoteOnly: 0,
      remoteCheck: null,
    });

    const engine = new HistoryEngine(dataDir);
    const blobsDir = engine.store(engine.locate(root)).blobs.dir;
    engine.close();
    rmSync(blobPath(blobsDir, sha256('alpha')));
    writeFileSync(blobPath(blobsDir, sha256('beta')), 'bitrot');

    const result = await runCli(['verify', root, '--data-dir', dataDir, '--json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout.toString('utf8'));
    expect(report.ok).toBe(false);
    expect(report.blobs).toBe(3);
    expect(report.missing).toEqual([{ hash: sha256('alpha'), versions: [expect.objectContaining({ path: 'a.txt' })] }]);
    expect(report.corrupt).toHaveLength(1);
    expect(report.corrupt[0].hash).toBe(sha256('beta'));
    expect(report.corrupt[0].versions.map((v: { path: string }) => v.path).sort()).toEqual(['b.txt', 'copy-of-b.txt']);

    // Showing a version whose blob is missing is a clear error, not a crash.
    const show = await runCli(['show', root, 'a.txt', '--data-dir', dataDir]);
    expect(show.code).toBe(1);
    expect(show.stderr).toMatch(/missing from the history store/);
  });
});

describe('verify, cancelled', () => {
  it('stops when its signal is aborted, with CANCELLED', async () => {
    const root = tempDir();
    const spec: Record<string, string> = {};
    for (let i = 0; i < 50; i++) spec[`f${i}.txt`] = `file ${i}`;
    writeTree(root, spec);
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    const { projectId } = await engine.open(root);
    const controller = new AbortController();
    let ticks = 0;
    engine.events.on((event) => {
      if (event.event !== 'progress') return;
      ticks++;
      controller.abort(Object.assign(new Error('Cancelled.'), { code: 'CANCELLED' }));
    });
    const run = engine.verify(projectId, { signal: controller.signal });
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(ticks).toBeGreaterThan(0);
    engine.close();
  });
});
