import { mkdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import { recordPaths } from '../../electron/history/versions/recordPaths.js';
import { CLI, startHost } from './fixtures/host.js';
import { expect, test } from './fixtures/viewer.js';

// The viewer benchmark (a measurement, not a timed test): a 100,000-file project's tree first
// paint (its top level: the tree reads a folder's level when it opens), a 1,000-file folder from
// its click to its first rows, a scroll to the end of every path under the filter (frame times
// from requestAnimationFrame and long tasks from the performance API), and a file with 1,000
// versions from click to its first versions painted (the newest page) and to the next older page
// painted. Each is also measured on a reference in the
// same run (a 100-file project, a file with one version), and reported as a ratio to it.
// Run: HINDSIGHT_BENCH=1 npm run test:e2e -- bench.spec.ts --project=browser
// Small (to check that it runs): HINDSIGHT_BENCH_DIRS=2 HINDSIGHT_BENCH_VERSIONS=150 with the same.
// Results go to stdout and .bench/viewer.json.

test.skip(process.env.HINDSIGHT_BENCH !== '1', 'viewer benchmark: set HINDSIGHT_BENCH=1 to run it');
// No Playwright trace: while it records, every action also serializes the page's DOM in the
// page's own thread (its snapshotter), which a CPU profile of a click on a file with 1,000
// versions showed as 90-325 ms of the window measured: the tool's cost, not the viewer's.
test.use({ trace: 'off' });

const DIRS = Number(process.env.HINDSIGHT_BENCH_DIRS ?? 100);
const PER_DIR = 1_000;
const VERSIONS = Number(process.env.HINDSIGHT_BENCH_VERSIONS ?? 1_000);
const REFERENCE_FILES = 100;

interface Frames {
  frames: number;
  totalMs: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  longTasks: number;
}

/** Click a button and time until a selector's element exists and one frame has painted it. */
async function clickToPaint(page: Page, clickSelector: string, text: string, waitSelector: string): Promise<number> {
  return page.evaluate(
    ([clickSel, label, waitSel]) =>
      new Promise<number>((resolve) => {
        const doc = (
          globalThis as unknown as {
            document: { querySelectorAll(s: string): ArrayLike<{ textContent: string | null; click(): void }>; querySelector(s: string): unknown };
          }
        ).document;
        const raf = (globalThis as unknown as { requestAnimationFrame(cb: () => void): void }).requestAnimationFrame;
        const target = Array.from(doc.querySelectorAll(clickSel)).find((el) => (el.textContent ?? '').includes(label));
        const started = performance.now();
        const check = () => {
          if (doc.querySelector(waitSel)) raf(() => resolve(performance.now() - started));
          else raf(check);
        };
        target!.click();
        check();
      }),
    [clickSelector, text, waitSelector] as const,
  );
}

/** Scrolls an element to its end, one viewport per frame, and reports the frame times. */
async function scrollToEnd(page: Page, selector: string): Promise<Frames> {
  return page.evaluate(
    (sel) =>
      new Promise<Frames>((resolve) => {
        const g = globalThis as unknown as {
          document: { querySelector(s: string): { scrollTop: number; scrollHeight: number; clientHeight: number } };
          requestAnimationFrame(cb: (t: number) => void): void;
          PerformanceObserver: new (cb: (list: { getEntries(): unknown[] }) => void) => { observe(o: object): void; disconnect(): void };
        };
        const el = g.document.querySelector(sel);
        let longTasks = 0;
        const observer = new g.PerformanceObserver((list) => (longTasks += list.getEntries().length));
        observer.observe({ type: 'longtask', buffered: false });
        const deltas: number[] = [];
        const started = performance.now();
        let last = started;
        const step = (now: number) => {
          deltas.push(now - last);
          last = now;
          if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) {
            observer.disconnect();
            const sorted = [...deltas].sort((a, b) => a - b);
            const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
            resolve({ frames: deltas.length, totalMs: performance.now() - started, medianMs: at(0.5), p95Ms: at(0.95), maxMs: sorted.at(-1) ?? 0, longTasks });
            return;
          }
          el.scrollTop += el.clientHeight;
          g.requestAnimationFrame(step);
        };
        g.requestAnimationFrame(step);
      }),
    selector,
  );
}

/** A row of the tree that is a file or folder (not the "Loading…" row of a level on its way). */
const TREE_ROW = '.tree-row[data-path]';

test('viewer: 100,000-file tree and a file with 1,000 versions', async ({ page, dataDir, folder }) => {
  test.setTimeout(900_000);
  const big = folder('hindsight-bench-100k-');
  for (let d = 0; d < DIRS; d++) {
    mkdirSync(join(big, `dir${String(d).padStart(3, '0')}`));
    for (let f = 0; f < PER_DIR; f++) writeFileSync(join(big, `dir${String(d).padStart(3, '0')}`, `file${f}.txt`), `file ${d}/${f}\n`);
  }
  const small = folder('hindsight-bench-ref100-');
  for (let f = 0; f < REFERENCE_FILES; f++) writeFileSync(join(small, `file${f}.txt`), `file ${f}\n`);
  const hot = folder('hindsight-bench-versions-');
  writeFileSync(join(hot, 'hot.txt'), 'version 0\n');
  writeFileSync(join(hot, 'one.txt'), 'one version\n');
  execFileSync(process.execPath, [CLI, 'open', big, '--data-dir', dataDir]);
  execFileSync(process.execPath, [CLI, 'open', small, '--data-dir', dataDir]);
  execFileSync(process.execPath, [CLI, 'open', hot, '--data-dir', dataDir]);
  process.env.HINDSIGHT_COPY_WORKER ??= join(process.cwd(), 'out/cli/copyWorker.js');
  const engine = new HistoryEngine(dataDir);
  const store = engine.store(engine.locate(hot));
  for (let i = 1; i < VERSIONS; i++) {
    writeFileSync(join(hot, 'hot.txt'), `version ${i}\n${'x'.repeat(i % 97)}\n`);
    await recordPaths(store, ['hot.txt'], { kind: 'change', label: null });
  }
  expect(store.index.versions.versionsOf('hot.txt')).toHaveLength(VERSIONS);
  engine.close();

  const host = await startHost(dataDir);
  // Every fileTree the page asks for, read off its socket: the first paint must not read every path.
  const fileTreeAsks: string[] = [];
  page.on('websocket', (ws) =>
    ws.on('framesent', ({ payload }) => {
      const call = typeof payload === 'string' ? (JSON.parse(payload) as { call?: string; args?: { folder?: string } }) : null;
      if (call?.call === 'fileTree') fileTreeAsks.push(call.args?.folder ?? '(every file)');
    }),
  );
  try {
    await page.goto(host.url);
    const nav = page.getByRole('navigation', { name: 'Projects' });
    const bigItem = nav.getByRole('button', { name: /hindsight-bench-100k-/ });
    const smallItem = nav.getByRole('button', { name: /hindsight-bench-ref100-/ });
    const hotItem = nav.getByRole('button', { name: /hindsight-bench-versions-/ });
    // The first click also opens the folder in the host (a rescan of 100,000 files): let it settle.
    await bigItem.click();
    await expect(page.locator(TREE_ROW).first()).toBeVisible({ timeout: 300_000 });
    await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 300_000 });

    // Tree first paint: from the click on the project to its first rows painted (the top level
    // read, with its marks, and drawn), with the folder already open in the host.
    // The reference: the same click on a 100-file project (opened once first, like the big one).
    await smallItem.click();
    await expect(page.locator(TREE_ROW).first()).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 60_000 });
    const firstPaint: number[] = [];
    const firstPaintReference: number[] = [];
    const folderOpen: number[] = [];
    fileTreeAsks.length = 0;
    for (let run = 0; run < 3; run++) {
      // Without the address's project: a reload would open it again by itself.
      await page.goto(host.url);
      await expect(bigItem).toBeVisible();
      firstPaint.push(await clickToPaint(page, '.sidebar-item', 'hindsight-bench-100k-', TREE_ROW));
      // A folder of 1,000 files opened: its level read and its first rows drawn.
      await expect(page.locator('.tree-row[data-path="dir000"]')).toBeVisible();
      folderOpen.push(await clickToPaint(page, TREE_ROW, 'dir000', '.tree-row[data-path^="dir000/"]'));
      await page.goto(host.url);
      await expect(smallItem).toBeVisible();
      firstPaintReference.push(await clickToPaint(page, '.sidebar-item', 'hindsight-bench-ref100-', TREE_ROW));
    }
    // The first paints read top levels and opened folders only, never every path.
    expect(fileTreeAsks.filter((f) => f === '(every file)')).toEqual([]);
    await page.goto(host.url);
    await bigItem.click();
    await expect(page.locator(TREE_ROW).first()).toBeVisible();
    // Every path under the filter (read now, the first time the filter is used), scrolled to the end.
    await page.getByLabel('Filter files').fill('file');
    await expect(page.getByRole('treeitem', { name: 'file0.txt' }).first()).toBeVisible();
    const rows = await page.evaluate(
      () =>
        (globalThis as unknown as { document: { querySelector(s: string): { scrollHeight: number } } }).document.querySelector('.tree-sizer').scrollHeight / 24,
    );
    const scroll = await scrollToEnd(page, '.tree');
    await expect(page.getByRole('treeitem', { name: 'file999.txt' }).last()).toBeVisible();

    const versionsShown: number[] = [];
    const versionsShownReference: number[] = [];
    const olderPageShown: number[] = [];
    await hotItem.click();
    await expect(page.getByRole('treeitem', { name: 'hot.txt' })).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 60_000 });
    for (let run = 0; run < 3; run++) {
      await page.goto(host.url);
      await hotItem.click();
      await expect(page.getByRole('treeitem', { name: 'hot.txt' })).toBeVisible();
      // The reference: a file with one version, the same click.
      versionsShownReference.push(
        await clickToPaint(page, '[role="treeitem"]', 'one.txt', '.version-list[data-path="one.txt"] li:nth-child(1) [data-version]'),
      );
      // The first versions painted: the newest page of the 1,000.
      versionsShown.push(await clickToPaint(page, '[role="treeitem"]', 'hot.txt', '.version-list[data-path="hot.txt"] li:nth-child(1) [data-version]'));
      await expect(page.getByRole('button', { name: 'Show older versions' })).toBeVisible();
      // The next older page, from its button to its first row painted.
      olderPageShown.push(await clickToPaint(page, '.version-more button', 'Show older versions', '.version-list li:nth-child(101) [data-version]'));
    }
    // Every page, down to the baseline, as the list scrolls.
    const versionList = page.getByRole('list', { name: 'Versions' });
    const rowsShown = () => versionList.locator('[data-version]').count();
    for (let shown = await rowsShown(); shown < VERSIONS; shown = await rowsShown()) {
      await page.getByRole('button', { name: /older versions/ }).scrollIntoViewIfNeeded();
      await expect.poll(rowsShown, { timeout: 60_000 }).toBeGreaterThan(shown);
    }
    await expect(versionList.locator('[data-version]')).toHaveCount(VERSIONS);

    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const result = {
      files: DIRS * PER_DIR,
      treeFirstPaintMs: firstPaint,
      treeFirstPaintReferenceMs: firstPaintReference,
      treeFirstPaintRatio: median(firstPaint) / median(firstPaintReference),
      folderOpenMs: folderOpen,
      rowsScrolled: rows,
      scroll,
      versions: VERSIONS,
      clickToFirstVersionsMs: versionsShown,
      clickToFirstVersionsReferenceMs: versionsShownReference,
      clickToFirstVersionsRatio: median(versionsShown) / median(versionsShownReference),
      olderPageMs: olderPageShown,
    };
    console.log(JSON.stringify(result, null, 2));
    mkdirSync('.bench', { recursive: true });
    writeFileSync('.bench/viewer.json', JSON.stringify(result, null, 2));
  } catch (error) {
    console.error(`host stderr:\n${host.stderr().slice(-4000)}`);
    throw error;
  } finally {
    await host.stop();
  }
});
