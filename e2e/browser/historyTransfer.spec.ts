import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, tempDir, writeBigTree, writeFiles } from './fixtures/folders.js';
import { startHost } from './fixtures/host.js';
import { shoot } from './fixtures/shoot.js';
import { expect, openProject, test } from './fixtures/viewer.js';

// "Export history…" and "Import history…" through the browser host: the project's history
// downloaded as one bundle, then uploaded to another host with a fresh data folder and attached
// to a copy of the folder at another path; the second viewer lists every snapshot of the first.
// A file that is not a bundle is refused with the host's words.

const screenshots = process.env.HINDSIGHT_SCREENSHOTS === '1';

test('a history exported as a download imports into a fresh data folder as another folder', async ({ viewer, folder, browser }) => {
  test.setTimeout(120_000);
  const dir = folder();
  writeBigTree(dir, 200, 32 * 1024);
  writeFiles(dir, { 'notes.txt': 'first\n' });
  await openProject(viewer, dir);
  writeFileSync(join(dir, 'notes.txt'), 'second\n');
  await viewer.getByRole('tab', { name: 'Timeline' }).click();
  const snapshots = viewer.getByRole('list', { name: 'Snapshots' }).getByRole('listitem');
  await expect(snapshots).not.toHaveCount(1, { timeout: 30_000 });
  const count = await snapshots.count();

  await viewer.getByRole('tab', { name: 'Store' }).click();
  if (screenshots) await shoot(viewer, 'transfer-store');
  const downloading = viewer.waitForEvent('download');
  await viewer.getByRole('button', { name: 'Export history…' }).click();
  const download = await downloading;
  const bundle = join(folder('hindsight-e2e-bundle-'), 'history.hsb');
  await download.saveAs(bundle);
  expect(download.suggestedFilename()).toMatch(/-history\.hsb$/);
  expect(readFileSync(bundle).subarray(0, 19).toString()).toBe('hindsight-bundle 4\n');
  await expect(viewer.getByText(/exported \(\d+ snapshots?, /)).toBeVisible();

  // Another data folder, another host, another tab: the project moved to another path.
  const moved = join(folder('hindsight-e2e-moved-'), 'project');
  cpSync(dir, moved, { recursive: true });
  const dataDir = tempDir('hindsight-e2e-data-');
  const other = await startHost(dataDir);
  const page = await browser.newPage();
  try {
    await page.goto(other.url);
    await page.getByRole('button', { name: 'Import history…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import history' });
    await dialog.getByLabel('Bundle file').setInputFiles(bundle);
    await dialog.getByRole('textbox', { name: 'Attach to folder (optional)' }).fill(moved);
    if (screenshots) await shoot(page, 'transfer-import-dialog');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(`Imported ${count} snapshots into the history of ${moved}`)).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.getByRole('tab', { name: 'Timeline' }).click();
    await expect(page.getByRole('list', { name: 'Snapshots' }).getByRole('listitem')).toHaveCount(count);

    // Not a bundle: refused at its first bytes, with the host's words.
    const notBundle = join(folder('hindsight-e2e-bundle-'), 'photo.hsb');
    writeFileSync(notBundle, 'not a history at all');
    await page.getByRole('tab', { name: 'Store' }).click();
    await page.getByRole('button', { name: 'Import history…' }).click();
    await dialog.getByLabel('Bundle file').setInputFiles(notBundle);
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(page.getByText('Import failed: That file is not a Hindsight history bundle')).toBeVisible();
    if (screenshots) await shoot(page, 'transfer-refused');
  } finally {
    await page.close();
    await other.stop();
    removeDir(dataDir);
    rmSync(bundle, { force: true });
  }
});
