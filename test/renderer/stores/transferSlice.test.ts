import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HindsightApi } from '../../../shared/hindsightApi.js';
import type { Progress } from '../../../shared/progress.js';
import { copyPercent, copyStatus } from '../../../renderer/features/copy/copyText.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, sha256, writeTree } from '../../helpers/writeTree.js';
import { blobFile } from '../../helpers/storedBlob.js';
import { openInViewer, startViewer } from './viewerHarness.js';

// "Export history…" and "Import history…" as the app runs them: the save and open dialogs answer
// paths (main's dialogs are the one part replaced here), the engine writes and reads the bundle,
// the work shows on a copy card phase by phase, and a toast says what was done or why not. An
// export refused for damaged contents offers to export without them, and says what it left out.

describe('export and import in the viewer', () => {
  it('exports to the path the save dialog chose and imports it as another folder, each on a card', async () => {
    const viewer = await startViewer();
    const root = tempDir();
    writeTree(root, { 'a.txt': 'alpha\n', 'data/big.bin': seededBytes(7, 600_000) });
    await openInViewer(viewer, root);
    const bundle = join(tempDir(), 'history.hsb');
    const suggested: string[] = [];
    const api = (globalThis as unknown as { window: { hindsight: HindsightApi } }).window.hindsight;
    Object.assign(api, {
      host: { ...api.host, nativeDialogs: true },
      chooseBundleTarget: async (name: string) => {
        suggested.push(name);
        return bundle;
      },
    });
    const seen: Progress[] = [];
    const stop = viewer.app.subscribe((state) => {
      for (const copy of Object.values(state.copies)) if (copy.progress && copy.progress !== seen.at(-1)) seen.push(copy.progress);
    });

    expect(await viewer.app.getState().exportHistory()).toBe(true);
    expect(suggested).toEqual([`${root.split('/').at(-1)}-history.hsb`]);
    expect(readFileSync(bundle).subarray(0, 19).toString()).toBe('hindsight-bundle 4\n');
    expect(viewer.app.getState().toasts.at(-1)?.message).toContain(`exported to ${bundle} (1 snapshot, `);
    const exported = seen.filter((p) => p.operation === 'export');
    expect(exported.map((p) => p.phase).filter((phase, i, all) => phase !== all[i - 1])).toEqual(['index', 'data', 'done']);
    const data = exported.filter((p) => p.phase === 'data').at(-1)!;
    expect(copyStatus(data, null)).toMatch(/^Writing contents: .+ of .+ · \d+ of \d+ contents/);
    expect(copyPercent(exported.at(-1)!)).toBe(100);
    expect(viewer.app.getState().copies).toEqual({});

    const moved = tempDir();
    expect(await viewer.app.getState().importHistory({ path: bundle }, moved)).toBe(true);
    stop();
    expect(viewer.app.getState().toasts.at(-1)?.message).toMatch(new RegExp(`^Imported 1 snapshot into the history of ${moved} \\(`));
    expect(viewer.app.getState().projects.map((p) => p.root)).toContain(moved);
    expect(seen.filter((p) => p.operation === 'import').at(-1)).toMatchObject({ phase: 'done' });

    expect(await viewer.app.getState().importHistory({ path: bundle }, moved)).toBe(true);
    expect(viewer.app.getState().toasts.at(-1)?.message).toBe(`Nothing new: the history of ${moved} already held every snapshot of that bundle.`);
  });

  it('says why an import failed and what a cancelled save dialog did: nothing', async () => {
    const viewer = await startViewer();
    const root = tempDir();
    writeTree(root, { 'a.txt': 'alpha\n' });
    await openInViewer(viewer, root);
    const api = (globalThis as unknown as { window: { hindsight: HindsightApi } }).window.hindsight;
    Object.assign(api, { host: { ...api.host, nativeDialogs: true }, chooseBundleTarget: async () => null });
    const toasts = viewer.app.getState().toasts.length;
    expect(await viewer.app.getState().exportHistory()).toBe(false);
    expect(viewer.app.getState().toasts).toHaveLength(toasts);

    const missing = join(tempDir(), 'missing.hsb');
    expect(await viewer.app.getState().importHistory({ path: missing }, tempDir())).toBe(false);
    expect(viewer.app.getState().toasts.at(-1)).toMatchObject({ tone: 'error', message: expect.stringContaining(`Import failed: `) });
    expect(viewer.app.getState().toasts.at(-1)?.message).toContain(missing);
    expect(existsSync(missing)).toBe(false);
    expect(viewer.app.getState().copies).toEqual({});
  });

  it('offers to export without the damaged files when damage refuses the export, then names what it left out', async () => {
    const viewer = await startViewer();
    const root = tempDir();
    writeTree(root, { 'damaged.txt': 'these bytes get damaged\n', 'fine.txt': 'fine\n' });
    const projectId = await openInViewer(viewer, root);
    const damagedVersion = viewer.engine.versions(projectId, 'damaged.txt')[0]!.versionId;
    const stored = blobFile(viewer.engine.store(projectId).blobs.dir, sha256('these bytes get damaged\n'));
    const bytes = readFileSync(stored);
    bytes[0] = bytes[0]! ^ 0x01;
    writeFileSync(stored, bytes);
    const bundle = join(tempDir(), 'history.hsb');
    let asked = 0;
    const api = (globalThis as unknown as { window: { hindsight: HindsightApi } }).window.hindsight;
    Object.assign(api, {
      host: { ...api.host, nativeDialogs: true },
      chooseBundleTarget: async () => {
        asked++;
        return bundle;
      },
    });

    expect(await viewer.app.getState().exportHistory()).toBe(false);
    const refused = viewer.app.getState().toasts.at(-1)!;
    expect(refused).toMatchObject({ tone: 'error', action: { label: 'Export without the damaged files' } });
    // Found while the bundle was written (no verify had marked it): the reader's own words.
    expect(refused.message).toMatch(/^Export failed: The stored contents .* are damaged/);
    expect(existsSync(bundle)).toBe(false);

    refused.action!.run();
    const done = await viewer.until((s) => s.toasts.at(-1) !== refused);
    expect(done.toasts.at(-1)!.tone).toBe('info');
    expect(done.toasts.at(-1)!.message).toContain(`exported to ${bundle} (`);
    expect(done.toasts.at(-1)!.message).toContain(
      `Left out, damaged or missing: damaged.txt (version ${damagedVersion}); an import keeps those versions without their bytes.`,
    );
    // The same place: the save dialog is not asked again.
    expect(asked).toBe(1);
    const moved = tempDir();
    expect(await viewer.app.getState().importHistory({ path: bundle }, moved)).toBe(true);
  });
});
