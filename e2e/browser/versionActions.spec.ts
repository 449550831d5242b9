import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import { recordPaths } from '../../electron/history/versions/recordPaths.js';
import { readText, writeFiles } from './fixtures/folders.js';
import { CLI, startHost } from './fixtures/host.js';
import { shoot } from './fixtures/shoot.js';
import { expect, openProject, selectFile, test, versions } from './fixtures/viewer.js';
import { execFileSync } from 'node:child_process';

// What a person does with one version: pins it (the pin shows in the list, the Timeline and the
// Store tab), restores one change of a diff with the current file (and undoes it), opens a search
// hit deep in a long history (the list scrolls to it, the header names it, focus goes to the
// content), and reaches Restore from the keyboard in a counted number of key presses.

const V1 = `${Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const NOW = V1.replace('line 2\n', 'line two\n').replace('line 11\n', 'line eleven\n');
const screens = process.env.HINDSIGHT_SCREENSHOTS === '1';

const row = (viewer: Page, n: number) => versions(viewer).nth(n);

test('a pinned version is marked in the list, its snapshot in the Timeline, and counted in the Store tab', async ({ viewer, folder }) => {
  const dir = folder();
  writeFiles(dir, { 'notes.txt': V1 });
  await openProject(viewer, dir);
  writeFileSync(join(dir, 'notes.txt'), NOW);
  await selectFile(viewer, 'notes.txt');
  await expect(versions(viewer)).toHaveCount(2, { timeout: 30_000 });

  await row(viewer, 1).getByRole('button').click();
  await expect(viewer.locator('.toolbar-sub')).toContainText('Version 1');
  await viewer.getByRole('button', { name: 'Pin version 1' }).click();
  await expect(viewer.getByRole('button', { name: 'Pin version 1' })).toHaveAttribute('aria-pressed', 'true');
  await expect(row(viewer, 1).locator('.version-pinned')).toHaveText('Pinned');
  await expect(row(viewer, 0).locator('.version-pinned')).toHaveCount(0);
  if (screens) await shoot(viewer, '30-version-pinned');

  await viewer.getByRole('tab', { name: 'Timeline' }).click();
  const snapshots = viewer.getByRole('list', { name: 'Snapshots' }).getByRole('listitem');
  await snapshots.first().getByRole('button').click();
  // The Timeline's keys: P pins the selected snapshot, R opens its restore.
  await viewer.keyboard.press('p');
  await expect(viewer.getByRole('button', { name: 'Pin snapshot' })).toHaveAttribute('aria-pressed', 'true');
  await expect(snapshots.first().locator('.snapshot-pinned')).toContainText('Pinned');
  await viewer.keyboard.press('r');
  await expect(viewer.getByRole('dialog', { name: 'Restore the project to this snapshot' })).toBeVisible();
  await viewer.keyboard.press('Escape');
  await expect(viewer.getByRole('dialog')).toHaveCount(0);
  await expect(viewer.locator('.snapshot-pinned')).toHaveCount(1);
  if (screens) await shoot(viewer, '31-timeline-pinned');

  await viewer.getByRole('tab', { name: 'Store' }).click();
  await expect(viewer.locator('.pins-count')).toHaveText(/Pinned: 1 version and 1 snapshot/);
  await viewer.locator('.pins-count').scrollIntoViewIfNeeded();
  if (screens) await shoot(viewer, '35-store-pins');
});

test('a history imported for an empty folder says the folder does not hold its files, and leads to its snapshot', async ({ page, dataDir, folder }) => {
  const src = folder();
  writeFiles(src, { 'a.txt': 'a\n', 'src/b.txt': 'b\n', 'src/c.txt': 'c\n' });
  const first = folder('hindsight-e2e-data-');
  execFileSync(process.execPath, [CLI, 'open', src, '--data-dir', first]);
  const bundle = join(folder('hindsight-e2e-bundle-'), 'h.hsb');
  execFileSync(process.execPath, [CLI, 'export', src, '--to', bundle, '--data-dir', first]);
  const empty = join(folder('hindsight-e2e-empty-'), 'copy');
  mkdirSync(empty);
  execFileSync(process.execPath, [CLI, 'import', bundle, '--as', empty, '--data-dir', dataDir]);
  const host = await startHost(dataDir);
  try {
    await page.goto(host.url);
    await page.getByRole('navigation', { name: 'Projects' }).getByRole('button', { name: /copy/ }).click();
    const note = page.getByRole('status').filter({ hasText: 'This folder does not hold these files' });
    await expect(note).toBeVisible({ timeout: 30_000 });
    await expect(note).toContainText('Restore a snapshot into it or open it as a new folder');
    await expect(page.getByRole('tree', { name: 'Files' })).toHaveCount(0);
    if (screens) await shoot(page, '36-imported-empty-folder');
    await note.getByRole('button', { name: 'Restore a snapshot…' }).click();
    await expect(page.getByRole('tab', { name: 'Timeline' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.locator('.detail-title')).toHaveText('First copy');
  } finally {
    await host.stop();
  }
});

test('Restore this change writes one block back into the current file, and Undo takes it away', async ({ viewer, folder }) => {
  const dir = folder();
  writeFiles(dir, { 'notes.txt': V1 });
  await openProject(viewer, dir);
  writeFileSync(join(dir, 'notes.txt'), NOW);
  await selectFile(viewer, 'notes.txt');
  await expect(versions(viewer)).toHaveCount(2, { timeout: 30_000 });
  await row(viewer, 1).getByRole('button').click();
  await viewer.getByLabel('Compare with').selectOption('disk');
  await expect(viewer.locator('.compare-title')).toHaveText('Version 1 ↔ Current file');
  const changes = viewer.getByTestId('diff-view').getByRole('button', { name: 'Restore this change' });
  await expect(changes).toHaveCount(2);
  if (screens) await shoot(viewer, '32-restore-this-change');

  await changes.first().click();
  await expect.poll(() => readText(dir, 'notes.txt')).toBe(NOW.replace('line two\n', 'line 2\n'));
  await expect(viewer.getByRole('status').filter({ hasText: 'Restored one change of notes.txt from Version 1' })).toBeVisible();
  // Recorded first, then the change: one more version, and only one change left to restore.
  await expect(versions(viewer)).toHaveCount(3, { timeout: 30_000 });
  await expect(changes).toHaveCount(1);

  await viewer.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => readText(dir, 'notes.txt')).toBe(NOW);
});

test('a search hit deep in a long history: the list scrolls to it, the header names it, focus goes to the content', async ({ page, dataDir, folder }) => {
  const dir = folder();
  const count = 140;
  writeFileSync(join(dir, 'hot.txt'), 'version 0\n');
  execFileSync(process.execPath, [CLI, 'open', dir, '--data-dir', dataDir]);
  process.env.HINDSIGHT_COPY_WORKER ??= join(process.cwd(), 'out/cli/copyWorker.js');
  const engine = new HistoryEngine(dataDir);
  try {
    const store = engine.store(engine.locate(dir));
    for (let i = 1; i < count; i++) {
      // Version 3 alone holds the word, three quarters down a long text: only a centring scroll puts it mid-view.
      const filler = (n: number) => Array.from({ length: n }, (_, k) => `filler ${k}`).join('\n');
      writeFileSync(join(dir, 'hot.txt'), i === 2 ? `${filler(300)}\nneedleword here\n${filler(100)}\n` : `version ${i}\n`);
      await recordPaths(store, ['hot.txt'], { kind: 'change', label: null });
    }
  } finally {
    engine.close();
  }
  const host = await startHost(dataDir);
  try {
    await page.goto(host.url);
    await page
      .getByRole('navigation', { name: 'Projects' })
      .getByRole('button', { name: /hindsight-e2e-project-/ })
      .click();
    await page.getByRole('treeitem', { name: 'hot.txt' }).click();
    await expect(versions(page).first()).toContainText(`Version ${count}`);

    await page.keyboard.press('Control+Shift+F');
    await page.getByRole('searchbox', { name: 'Search history' }).fill('needleword');
    await page.keyboard.press('Enter');
    await page
      .getByRole('list', { name: 'Search results' })
      .getByRole('button', { name: /^Open hot\.txt line 301/ })
      .click();

    const selected = page.locator('[data-version][aria-current="true"]');
    await expect(selected).toContainText('Version 3');
    await expect(selected).toBeInViewport();
    await expect(page.locator('.toolbar-sub')).toContainText('Version 3');
    await expect(page.locator('.cm-search-hit')).toBeInViewport();
    // The found line sits in the middle of the editor, not at an edge.
    const place = await page.locator('.cm-search-hit').evaluate((hit) => {
      // Where the line is within the part of the editor on screen.
      const scroller = hit.closest('.cm-scroller')!.getBoundingClientRect();
      const top = Math.max(scroller.top, 0);
      const bottom = Math.min(scroller.bottom, (globalThis as unknown as { innerHeight: number }).innerHeight);
      const box = hit.getBoundingClientRect();
      return (box.top + box.height / 2 - top) / (bottom - top);
    });
    expect(place).toBeGreaterThan(0.25);
    expect(place).toBeLessThan(0.75);
    // Focus is inside the content pane (the editor's host, or the pane's body).
    const focusInContent = await page.locator('.content-pane').evaluate((pane) => pane.matches(':focus-within'));
    expect(focusInContent).toBe(true);
    if (screens) await shoot(page, '33-search-hit-deep');
  } finally {
    await host.stop();
  }
});

test('the keyboard reaches Restore in a few key presses: the compare boxes are one tab stop, R restores, ? lists every shortcut', async ({
  viewer,
  folder,
}) => {
  const dir = folder();
  writeFiles(dir, { 'notes.txt': V1 });
  await openProject(viewer, dir);
  writeFileSync(join(dir, 'notes.txt'), NOW);
  await selectFile(viewer, 'notes.txt');
  await expect(versions(viewer)).toHaveCount(2, { timeout: 30_000 });
  writeFileSync(join(dir, 'notes.txt'), `${NOW}one more\n`);
  await expect(versions(viewer)).toHaveCount(3, { timeout: 30_000 });

  // From the newest row: down twice to Version 1, then Tab until the Restore button has focus.
  await row(viewer, 0).getByRole('button').focus();
  let presses = 0;
  const press = async (key: string) => {
    presses++;
    await viewer.keyboard.press(key);
  };
  await press('ArrowDown');
  await press('ArrowDown');
  await expect(row(viewer, 2).getByRole('button')).toBeFocused();
  const restore = viewer.getByRole('button', { name: 'Restore this version' });
  await expect(restore).toHaveText('Restore Version 1');
  for (let tab = 0; tab < 10 && !(await restore.evaluate((el) => el.matches(':focus'))); tab++) await press('Tab');
  await expect(restore).toBeFocused();
  // Two arrows, then four Tabs: the one compare-box stop, the compare menu, Pin, Restore.
  expect(presses).toBe(6);
  await expect(viewer.locator('.version-list input[type="checkbox"]:not([tabindex="-1"])')).toHaveCount(1);

  // The compare boxes are one stop: Tab from the list lands on one box, arrows move among them.
  await row(viewer, 2).getByRole('button').focus();
  await viewer.keyboard.press('Tab');
  await expect(viewer.getByRole('checkbox', { name: 'Compare version 1' })).toBeFocused();
  await viewer.keyboard.press('ArrowUp');
  await expect(viewer.getByRole('checkbox', { name: 'Compare version 2' })).toBeFocused();
  await viewer.keyboard.press('Space');
  await expect(viewer.getByRole('checkbox', { name: 'Compare version 2' })).toBeChecked();
  await row(viewer, 2).getByRole('button').focus();

  // One key: R opens the restore of the selected version.
  await viewer.keyboard.press('r');
  await expect(viewer.getByRole('dialog', { name: 'Restore notes.txt?' })).toBeVisible();
  await viewer.keyboard.press('Escape');
  await expect(viewer.getByRole('dialog')).toHaveCount(0);
  await expect(restore).toHaveAttribute('title', /\(R\)$/);

  await row(viewer, 2).getByRole('button').focus();
  await viewer.keyboard.press('?');
  const sheet = viewer.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  await expect(sheet).toContainText('Restore the selected version');
  if (screens) await shoot(viewer, '34-keyboard-shortcuts');
  await viewer.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
});
