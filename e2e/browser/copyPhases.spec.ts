import { execFileSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { CLI } from './fixtures/host.js';
import { writeBigTree, writeFiles } from './fixtures/folders.js';
import { expect, openFolder, openProject, test } from './fixtures/viewer.js';

// The first copy as the viewer shows it: the walk as its own phase (files found so far, no bar),
// then a bar against the known total, then a completion line that stays until dismissed; a known
// project checked again never says "0 of 0"; a folder past the large-folder settings asks first,
// showing what was found. Every status text the card ever showed is recorded in the page, so a
// quick copy is still observed without a timed assertion.

const STATUS_RECORDER = `
  window.__copyTexts = [];
  new MutationObserver(() => {
    for (const card of document.querySelectorAll('.copy-card')) {
      const text = card.querySelector('.copy-stats')?.textContent ?? '';
      const bar = card.querySelector('[role="progressbar"]');
      const entry = text + ' | ' + (bar && bar.hasAttribute('aria-valuenow') ? bar.getAttribute('aria-valuenow') : 'no value');
      if (window.__copyTexts.at(-1) !== entry) window.__copyTexts.push(entry);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
`;

async function copyTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => (globalThis as unknown as { __copyTexts: string[] }).__copyTexts);
}

test('a first copy: the walk, then a bar against the known total, then a completion line', async ({ viewer, folder }) => {
  await viewer.addInitScript(STATUS_RECORDER);
  await viewer.reload();
  const big = folder();
  writeBigTree(big, 1_500, 16 * 1024);
  writeFiles(big, { 'README.md': '# big\n' });
  await openProject(viewer, big);

  const texts = await copyTexts(viewer);
  // The walk: files found so far, and no value on the bar while the total still grows.
  expect(texts.some((t) => /^Looking for files: [\d,]+ files? found so far.* \| no value$/.test(t))).toBe(true);
  expect(texts.filter((t) => t.startsWith('Looking for files')).every((t) => t.endsWith('| no value'))).toBe(true);
  // Every count against a total is against the final total.
  const againstTotal = texts.filter((t) => / of [\d,]+ files/.test(t));
  expect(againstTotal.every((t) => t.includes('of 1,501 files'))).toBe(true);

  const done = viewer.getByRole('status').filter({ hasText: 'Copied' });
  await expect(done).toContainText(/1,501 files in [\d.]+ s, [\d.]+ MB/);
  await done.getByRole('button', { name: /^Dismiss: copied/ }).click();
  await expect(done).toHaveCount(0);
});

test('a known project is checked for changes, never "0 of 0 files"', async ({ viewer, folder, dataDir }) => {
  await viewer.addInitScript(STATUS_RECORDER);
  const dir = folder();
  writeBigTree(dir, 4_000, 512);
  // Copied by an earlier session (the CLI): known from config.json, not open in the host.
  execFileSync(process.execPath, [CLI, 'open', dir, '--data-dir', dataDir]);
  await viewer.reload();
  await viewer
    .getByRole('navigation', { name: 'Projects' })
    .getByRole('button', { name: /hindsight-e2e-project-/ })
    .click();
  await expect(viewer.getByRole('tree', { name: 'Files' })).toBeVisible();
  await expect(viewer.getByRole('region', { name: 'Copies in progress' }).locator('.copy-card')).toHaveCount(0);
  // The card shows only when the check takes a moment; whatever it showed was a check, never
  // "0 of 0" and never a bar while it could not know how far it was (copyPhases.test.ts counts
  // the same from the engine's events).
  const texts = await copyTexts(viewer);
  expect(texts.filter((t) => !t.startsWith('Checking for changes') && t !== 'Checked | 100')).toEqual([]);
  expect(texts.filter((t) => t.startsWith('Checking for changes…') && !t.endsWith('| no value'))).toEqual([]);
  const done = viewer.getByRole('status').filter({ hasText: 'Checked' });
  if ((await done.count()) > 0) await expect(done).toContainText('Up to date: 4,000 files');
});

test.describe('a folder past the large-folder settings', () => {
  test.use({ configJson: JSON.stringify({ settings: { largeFolderFiles: 100 } }) });
  test('asks first, showing what was found, and copies once confirmed', async ({ viewer, folder }) => {
    const dir = folder();
    writeBigTree(dir, 300, 1024);
    await openFolder(viewer, dir);
    const dialog = viewer.getByRole('dialog', { name: 'Copy this large folder?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(dir);
    await expect(dialog).toContainText('100 files');
    await expect(dialog.getByRole('definition').first()).toContainText(/at least [\d,]+/);
    await expect(viewer.getByRole('navigation', { name: 'Projects' }).getByRole('listitem')).toHaveCount(0);

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(viewer.getByRole('tree', { name: 'Files' })).toHaveCount(0);

    await openFolder(viewer, dir);
    await viewer.getByRole('dialog', { name: 'Copy this large folder?' }).getByRole('button', { name: 'Copy anyway' }).click();
    await expect(viewer.getByRole('tree', { name: 'Files' })).toBeVisible();
    await expect(viewer.getByRole('status').filter({ hasText: 'Copied' })).toContainText('300 files in');
  });
});
