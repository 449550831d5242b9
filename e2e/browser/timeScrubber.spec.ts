import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import { historyDbPath } from '../../electron/history/store/storeLayout.js';
import { CLI, startHost } from './fixtures/host.js';
import { shoot } from './fixtures/shoot.js';
import { expect, test, versions } from './fixtures/viewer.js';

// The time scrubber beside the Timeline and a file's versions, and the Store view's charts, on a
// history of two months: a click, a drag and the keys jump the list to an hour or day; the Store
// view draws the history's size over time and what holds the space (named canvases, legends).

const DAY = 86_400_000;
/** Snapshots of x.txt, each a day (at local noon) before today, named so a row tells which one was selected. */
const EDITS = [
  { days: 45, label: 'Sketch of the plan' },
  { days: 30, label: 'Draft one' },
  { days: 30, label: 'Draft two' },
  { days: 30, label: 'Draft three' },
  { days: 7, label: 'Review notes' },
  { days: 1, label: 'Yesterday’s fix' },
  { days: 0, label: 'This morning' },
];
const CONTENTS = ['A\n', 'B\n'];

/** A folder whose first copy was 60 days ago, then the edits above: written through the index, as a pull writes snapshots (two months cannot be recorded live). */
function twoMonthsOfHistory(dir: string, dataDir: string): void {
  writeFileSync(join(dir, 'x.txt'), CONTENTS[0]!);
  writeFileSync(join(dir, 'y.txt'), CONTENTS[1]!);
  execFileSync(process.execPath, [CLI, 'open', dir, '--data-dir', dataDir]);
  process.env.HINDSIGHT_COPY_WORKER ??= join(process.cwd(), 'out/cli/copyWorker.js');
  const noon = new Date();
  noon.setHours(12, 0, 0, 0);
  const engine = new HistoryEngine(dataDir);
  const store = engine.store(engine.locate(dir));
  try {
    store.index.importSnapshots(
      EDITS.map((edit, i) => {
        const bytes = CONTENTS[(i + 1) % 2]!;
        const hash = createHash('sha256').update(bytes).digest('hex');
        return {
          snapshot: { kind: 'change', at: noon.getTime() - edit.days * DAY + i * 60_000 - (edit.days === 0 ? 3_600_000 : 0), label: edit.label },
          versions: [{ path: 'x.txt', hash, mode: 0o644, size: bytes.length, type: 'file' }],
          blobs: [{ hash, size: bytes.length }],
        };
      }),
    );
  } finally {
    engine.close();
  }
  writeFileSync(join(dir, 'x.txt'), CONTENTS[EDITS.length % 2]!);
  const db = new Database(historyDbPath(store.storeDir));
  db.prepare("UPDATE snapshots SET at = ? WHERE kind = 'baseline'").run(noon.getTime() - 60 * DAY);
  db.close();
}

async function openTwoMonths(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page
    .getByRole('navigation', { name: 'Projects' })
    .getByRole('button', { name: /hindsight-e2e-project-/ })
    .click();
  await expect(page.getByRole('tree', { name: 'Files' })).toBeVisible();
}

test('the scrubber jumps the Timeline and a file’s versions by click, drag and keys; the Store view draws its charts', async ({ page, dataDir, folder }) => {
  const dir = folder();
  twoMonthsOfHistory(dir, dataDir);
  const host = await startHost(dataDir);
  try {
    await openTwoMonths(page, host.url);
    await page.getByRole('tab', { name: 'Timeline' }).click();
    const strip = page.getByRole('slider', { name: 'Changes over time' });
    const heading = page.getByRole('region', { name: 'Snapshot', exact: true }).getByRole('heading');
    await expect(heading).toHaveText('This morning');
    await expect(strip).toHaveAttribute('aria-valuetext', /1 snapshot, 1 file changed/);
    await expect(strip).toHaveAttribute('aria-valuemax', '5'); // six days recorded something

    // A click at the bottom: the oldest day, the first copy, selected and its row in view.
    const box = (await strip.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height - 1);
    await expect(heading).toHaveText('First copy');
    await expect(page.locator('.snapshot-list [aria-current="true"]')).toBeInViewport();

    // The keys: End the newest day, Down three days with changes older, Enter jumps to that day's newest snapshot.
    await strip.focus();
    await page.keyboard.press('End');
    await expect(heading).toHaveText('First copy'); // moving the cursor does not jump
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(strip).toHaveAttribute('aria-valuetext', /3 snapshots, 3 files changed/);
    await page.keyboard.press('Enter');
    await expect(heading).toHaveText('Draft three');
    await expect(strip).toBeFocused();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await expect(heading).toHaveText('Sketch of the plan');

    // A drag from the bottom to the top passes through the days to the newest.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height - 1);
    await page.mouse.down();
    await expect(heading).toHaveText('First copy');
    await page.mouse.move(box.x + box.width / 2, box.y + 1, { steps: 8 });
    await page.mouse.up();
    await expect(heading).toHaveText('This morning');
    if (process.env.HINDSIGHT_SCREENSHOTS === '1') await shoot(page, '44-scrubber-timeline');

    // Beside a file's versions: Home and Enter open its first version (the first copy's).
    await page.getByRole('tab', { name: 'Files' }).click();
    await page.getByRole('treeitem', { name: 'x.txt' }).click();
    const fileStrip = page.getByRole('slider', { name: 'Versions over time' });
    await expect(fileStrip).toHaveAttribute('aria-valuetext', /1 version$/);
    await fileStrip.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    await expect(versions(page).filter({ has: page.locator('[aria-current="true"]') })).toContainText('Version 1');
    if (process.env.HINDSIGHT_SCREENSHOTS === '1') await shoot(page, '44-scrubber-versions');

    // The Store view's charts: named canvases and their legends.
    await page.getByRole('tab', { name: 'Store' }).click();
    const charts = page.getByRole('region', { name: 'Space used' });
    await expect(charts.getByRole('img', { name: /^History size over time: .+ stored, .+ as the files are$/ })).toBeVisible();
    await expect(charts.getByRole('img', { name: /^What holds the space: x\.txt holds the most/ })).toBeVisible();
    await expect(charts.locator('.u-legend').first()).toContainText('Stored');
    await expect(charts.locator('.u-legend').first()).toContainText('As the files are');
    await expect(charts.locator('.u-legend').nth(1)).toContainText('Stored by its versions');
    if (process.env.HINDSIGHT_SCREENSHOTS === '1') await shoot(page, '44-store-charts');

    // The ? sheet lists the strip's keys.
    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(sheet).toContainText('Jump the list to the hour or day chosen on the strip');
    await expect(sheet.getByRole('row', { name: /PgUp PgDn Home End/ })).toContainText('Time strip');
  } finally {
    await host.stop();
  }
});
