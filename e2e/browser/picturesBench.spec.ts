import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { Page } from '@playwright/test';
import { writePictureHistory } from '../../test/bench/pictures/pictureHistory.js';
import { removeDir, tempDir } from './fixtures/folders.js';
import { CLI, startHost } from './fixtures/host.js';
import { expect, test } from './fixtures/viewer.js';

// The pictures benchmark (a measurement, not a timed test): the time scrubber and the Store
// view's size chart drawn on a history of 100,000 snapshots against one of 100, as a ratio (issue
// 44 asks for within 1.5x). Each figure is the call plus the render: from the viewer's
// changeDensity (or storeGrowth) call leaving the page to the strip (chart) drawn and one frame
// painted, timed in the page: the bridge is wrapped to note when each call starts, the strip's
// canvas says what it drew (data-drawn), the chart's canvas gets its name once drawn.
//   - the file strip: x.txt clicked (every snapshot changed it: 100,000 versions);
//   - the Timeline strip: the Timeline tab opened (the whole history; its window may also hold the
//     list's own layout, which draws every snapshot's row);
//   - the Store chart: the Store tab opened.
// Run: HINDSIGHT_BENCH=1 npm run test:e2e -- picturesBench.spec.ts --project=browser
// Small (to check that it runs): HINDSIGHT_BENCH_SNAPSHOTS=2000 with the same.
// Results go to stdout and .bench/viewer-pictures.json.

test.skip(process.env.HINDSIGHT_BENCH !== '1', 'pictures benchmark: set HINDSIGHT_BENCH=1 to run it');
test.use({ trace: 'off' });

const SNAPSHOTS = Number(process.env.HINDSIGHT_BENCH_SNAPSHOTS ?? 100_000);
const REFERENCE = 100;
const RUNS = Number(process.env.HINDSIGHT_BENCH_RUNS ?? 5);

/** Notes when each changeDensity and storeGrowth call leaves the page (the bridge is assigned once, by its script). */
const CALL_CLOCK = `
  window.__callStarts = {};
  let wrapped;
  Object.defineProperty(window, 'hindsight', {
    configurable: true,
    get: () => wrapped,
    set: (api) => {
      const timed = (name) => (request) => {
        window.__callStarts[name] = performance.now();
        return api[name](request);
      };
      wrapped = Object.freeze({ ...api, changeDensity: timed('changeDensity'), storeGrowth: timed('storeGrowth') });
    },
  });
`;

/** Clicks, then times from the call's start to `drawn` holding and a frame painted. */
async function callToDrawn(page: Page, click: () => Promise<void>, call: 'changeDensity' | 'storeGrowth', drawn: string): Promise<number> {
  await page.evaluate(() => {
    (globalThis as unknown as { __callStarts: Record<string, number> }).__callStarts = {};
  });
  await click();
  return page.evaluate(
    ([name, selector]) =>
      new Promise<number>((resolve) => {
        const g = globalThis as unknown as {
          __callStarts: Record<string, number>;
          document: { querySelector(s: string): unknown };
          requestAnimationFrame(cb: () => void): void;
        };
        const check = () => {
          const started = g.__callStarts[name!];
          if (started !== undefined && g.document.querySelector(selector!)) g.requestAnimationFrame(() => resolve(performance.now() - started));
          else g.requestAnimationFrame(check);
        };
        check();
      }),
    [call, drawn],
  );
}

function median(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]!);
}

async function measure(page: Page, snapshots: number): Promise<Record<string, number[]>> {
  const dataDir = tempDir('hindsight-bench-pictures-data-');
  const dir = tempDir('hindsight-bench-pictures-');
  writePictureHistory(CLI, dir, dataDir, snapshots);
  const host = await startHost(dataDir);
  try {
    await page.addInitScript(CALL_CLOCK);
    await page.goto(host.url);
    await page
      .getByRole('navigation', { name: 'Projects' })
      .getByRole('button', { name: /hindsight-bench-pictures-/ })
      .click();
    await expect(page.getByRole('treeitem', { name: 'x.txt' })).toBeVisible();
    const times: Record<string, number[]> = { fileStripMs: [], timelineStripMs: [], storeChartMs: [] };
    for (let run = 0; run < RUNS; run++) {
      await page.getByRole('treeitem', { name: 'y.txt' }).click();
      await expect(page.getByRole('slider', { name: 'Versions over time' })).toHaveAttribute('data-drawn', /\d+/);
      times.fileStripMs!.push(
        await callToDrawn(
          page,
          () => page.getByRole('treeitem', { name: 'x.txt' }).click(),
          'changeDensity',
          '.versions-pane canvas[data-drawn]:not([data-drawn="1"])',
        ),
      );
      times.timelineStripMs!.push(
        await callToDrawn(page, () => page.getByRole('tab', { name: 'Timeline' }).click(), 'changeDensity', '.snapshots-pane canvas[data-drawn]'),
      );
      times.storeChartMs!.push(
        await callToDrawn(page, () => page.getByRole('tab', { name: 'Store' }).click(), 'storeGrowth', 'canvas[aria-label^="History size over time"]'),
      );
      await page.getByRole('tab', { name: 'Files' }).click();
    }
    return times;
  } finally {
    await host.stop();
    removeDir(dir);
    removeDir(dataDir);
  }
}

test('viewer: the scrubber and the Store chart on 100,000 snapshots against 100', async ({ page }) => {
  test.setTimeout(1_800_000);
  const loadAtStart = loadavg();
  const reference = await measure(page, REFERENCE);
  const large = await measure(page, SNAPSHOTS);
  const result = {
    snapshots: SNAPSHOTS,
    reference: REFERENCE,
    runs: RUNS,
    ...Object.fromEntries(
      Object.keys(large).map((key) => [
        key,
        {
          large: large[key]!.map(Math.round),
          reference: reference[key]!.map(Math.round),
          ratioOfMedians: median(large[key]!) / Math.max(1, median(reference[key]!)),
        },
      ]),
    ),
    loadAverage: { start: loadAtStart.map((l) => Math.round(l * 10) / 10), end: loadavg().map((l) => Math.round(l * 10) / 10) },
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync('.bench', { recursive: true });
  writeFileSync('.bench/viewer-pictures.json', JSON.stringify(result, null, 2));
});
