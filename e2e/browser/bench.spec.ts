import { mkdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import { recordPaths } from '../../electron/history/versions/recordPaths.js';
import { CLI, startHost } from './fixtures/host.js';
import { expect, test } from './fixtures/viewer.js';

// The viewer benchmark (a measurement, not a timed test): a 100,000-file project's tree first
// paint and a scroll to its end (frame times from requestAnimationFrame and long tasks from the
// performance API), and a file with 1,000 versions from click to versions shown.
// Run: HINDSIGHT_BENCH=1 npm run test:e2e -- bench.spec.ts --project=browser
// Results go to stdout and .bench/viewer.json.

test.skip(process.env.HINDSIGHT_BENCH !== '1', 'viewer benchmark: set HINDSIGHT_BENCH=1 to run it');

const DIRS = Number(process.env.HINDSIGHT_BENCH_DIRS ?? 100);
const PER_DIR = 1_000;
const VERSIONS = 1_000;

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
        const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ textContent: string | null; click(): void }>; querySelector(s: string): unknown } }).document;
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

test('viewer: 100,000-file tree and a file with 1,000 versions', async ({ page, dataDir, folder }) => {
  test.setTimeout(900_000);
  const big = folder('hindsight-bench-100k-');
  for (let d = 0; d < DIRS; d++) {
    mkdirSync(join(big, `dir${String(d).padStart(3, '0')}`));
    for (let f = 0; f < PER_DIR; f++) writeFileSync(join(big, `dir${String(d).padStart(3, '0')}`, `file${f}.txt`), `file ${d}/${f}\n`);
  }
  const hot = folder('hindsight-bench-versions-');
  writeFileSync(join(hot, 'hot.txt'), 'version 0\n');
  execFileSync(process.execPath, [CLI, 'open', big, '--data-dir', dataDir]);
  execFileSync(process.execPath, [CLI, 'open', hot, '--data-dir', dataDir]);
  process.env.HINDSIGHT_COPY_WORKER ??= join(process.cwd(), 'out/cli/copyWorker.js');
  const engine = new HistoryEngine(dataDir);
  const store = engine.history(engine.locate(hot));
  for (let i = 1; i < VERSIONS; i++) {
    writeFileSync(join(hot, 'hot.txt'), `version ${i}\n${'x'.repeat(i % 97)}\n`);
    await recordPaths(store, ['hot.txt'], { kind: 'change', label: null });
  }
  expect(store.index.versionsOf('hot.txt')).toHaveLength(VERSIONS);
  engine.close();

  const host = await startHost(dataDir);
  try {
    await page.goto(host.url);
    const nav = page.getByRole('navigation', { name: 'Projects' });
    const bigItem = nav.getByRole('button', { name: /hindsight-bench-100k-/ });
    const hotItem = nav.getByRole('button', { name: /hindsight-bench-versions-/ });
    // The first click also opens the folder in the host (a rescan of 100,000 files): let it settle.
    await bigItem.click();
    await expect(page.getByRole('treeitem').first()).toBeVisible({ timeout: 300_000 });
    await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 300_000 });

    // Tree first paint: from the click on the project to its first rows painted (files fetched,
    // the baseline compared, the tree built), with the folder already open in the host.
    const firstPaint: number[] = [];
    for (let run = 0; run < 3; run++) {
      await page.reload();
      await expect(bigItem).toBeVisible();
      firstPaint.push(await clickToPaint(page, '.sidebar-item', 'hindsight-bench-100k-', '[role="treeitem"]'));
    }
    await page.getByLabel('Filter files').fill('file');
    await expect(page.getByRole('treeitem', { name: 'file0.txt' }).first()).toBeVisible();
    const rows = await page.evaluate(() => (globalThis as unknown as { document: { querySelector(s: string): { scrollHeight: number } } }).document.querySelector('.tree-sizer').scrollHeight / 24);
    const scroll = await scrollToEnd(page, '.tree');
    await expect(page.getByRole('treeitem', { name: 'file999.txt' }).last()).toBeVisible();

    const versionsShown: number[] = [];
    await hotItem.click();
    await expect(page.getByRole('treeitem', { name: 'hot.txt' })).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 60_000 });
    for (let run = 0; run < 3; run++) {
      await page.reload();
      await hotItem.click();
      await expect(page.getByRole('treeitem', { name: 'hot.txt' })).toBeVisible();
      versionsShown.push(await clickToPaint(page, '[role="treeitem"]', 'hot.txt', '.version-list li:nth-child(1000)'));
    }
    await expect(page.getByRole('list', { name: 'Versions' }).getByRole('listitem')).toHaveCount(VERSIONS);

    const result = { files: DIRS * PER_DIR, treeFirstPaintMs: firstPaint, rowsScrolled: rows, scroll, versions: VERSIONS, clickToVersionsMs: versionsShown };
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
