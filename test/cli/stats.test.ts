import { describe, expect, it, onTestFinished } from 'vitest';
import type { StoreStats } from '../../shared/contract/values.js';
import { createDispatcher } from '../../electron/history/dispatcher/dispatcher.js';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import { NOISE, olderStore, sourceText } from '../history/compact/olderStore.js';
import { cliJson, runCli } from '../helpers/runCli.js';

// `hindsight stats FOLDER`: the bytes as the files are and on disk, the saving, the blobs by form,
// and how many versions the budget holds at the store's density against uncompressed: the same
// answer the Store tab gets from storeStats. Measured on a store written before compression,
// then compacted: the figures move as the blobs do.

describe('hindsight stats', () => {
  it('says what compression saves and what the budget holds, before and after a compaction, as the viewer gets it', async () => {
    const texts = [1, 2, 3, 4].map((seed) => sourceText(900 + seed));
    const { root, dataDir } = await olderStore({
      'a.ts': texts[0]!,
      'b.ts': texts[1]!,
      'c.ts': texts[2]!,
      'd.ts': texts[3]!,
      'noise.bin': NOISE,
      'small.txt': 'small\n',
    });
    const data = ['--data-dir', dataDir];
    const rawBytes = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0) + NOISE.length + 6;

    const before = await cliJson<StoreStats>(['stats', root, ...data]);
    expect(before).toMatchObject({ blobs: 6, blobBytes: rawBytes, versions: 6 });
    expect(before.density).toMatchObject({
      rawBytes,
      storedBytes: rawBytes,
      savedBytes: 0,
      ratio: 1,
      blobsCompressed: 0,
      blobsRaw: 1,
      blobsUnmeasured: 5,
      compactable: 5,
      budget: 2 * 1024 ** 3,
    });
    expect(before.density.versionsInBudget).toBe(before.density.versionsInBudgetUncompressed);

    await cliJson(['compact', root, ...data]);
    const after = await cliJson<StoreStats>(['stats', root, ...data]);
    const d = after.density;
    expect(d).toMatchObject({ rawBytes, blobsCompressed: 4, blobsRaw: 2, blobsUnmeasured: 0, compactable: 0, compactableBytes: 0 });
    expect(d.savedBytes).toBe(rawBytes - d.storedBytes);
    expect(d.storedBytes).toBeLessThan(rawBytes);
    expect(d.ratio).toBeCloseTo(d.storedBytes / rawBytes, 10);
    // Six versions in the history: the budget over the mean bytes each costs, on disk and raw.
    expect(d.versionsInBudget).toBe(Math.floor(d.budget! / (d.storedBytes / 6)));
    expect(d.versionsInBudgetUncompressed).toBe(Math.floor(d.budget! / (rawBytes / 6)));
    expect(d.versionsInBudget!).toBeGreaterThan(d.versionsInBudgetUncompressed!);

    // The viewer's storeStats call answers the same.
    const engine = new HistoryEngine(dataDir);
    const dispatcher = createDispatcher(engine, { watch: false });
    onTestFinished(async () => {
      await dispatcher.close();
      engine.close();
    });
    const answer = await dispatcher.handle({ kind: 'call', id: 1, call: 'storeStats', args: { projectId: after.projectId, largest: 10 } });
    expect(answer.result).toMatchObject({ ok: true, value: { density: d } });

    const text = await runCli(['stats', root, ...data]);
    expect(text.code).toBe(0);
    const out = text.stdout.toString();
    expect(out).toContain('Blobs:             4 compressed, 2 raw\n');
    expect(out).toMatch(/Blobs stored: +[\d.]+ KiB \([\d.]+% of the files' bytes\)/);
    const size = String.raw`[\d.,]+ (?:bytes?|KiB|MiB)`;
    expect(out).toMatch(
      new RegExp(String.raw`On disk: +${size} \(blobs ${size} in [\d,]+ files; index ${size}, search ${size} of it; backup ${size}; other ${size}\)`),
    );
    expect(out).toMatch(/Budget: +2\.0 GiB holds about [\d,]+ versions at this density \([\d,]+ uncompressed\)/);
  });

  it('names a folder with no history as the other commands do', async () => {
    const { root, dataDir } = await olderStore({ 'a.txt': 'a\n' });
    const missing = await runCli(['stats', `${root}-nowhere`, '--data-dir', dataDir]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^hindsight stats: /);
  });
});
