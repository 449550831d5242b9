import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { blobsDirOf, projectStoreDir } from '../../electron/history/store/storeLayout.js';
import { blobFile } from '../../test/helpers/storedBlob.js';
import { sha256 } from '../../test/helpers/writeTree.js';
import { removeDir, tempDir, writeBigTree, writeFiles } from './fixtures/folders.js';
import { startHost } from './fixtures/host.js';
import { shoot } from './fixtures/shoot.js';
import { expect, openProject, test } from './fixtures/viewer.js';

// "Export history…" and "Import history…" through the browser host: the project's history
// downloaded as one bundle, then uploaded to another host with a fresh data folder and attached
// to a copy of the folder at another path; the second viewer lists every snapshot of the first.
// A file that is not a bundle is refused with the host's words. An export refused for damaged
// contents offers to export without them, and says what it left out.

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

test('an export refused for damaged contents offers to export without them, then names what it left out', async ({ host, folder, dataDir, browser }) => {
  const dir = folder();
  writeFiles(dir, { 'damaged.txt': 'these bytes get damaged\n', 'fine.txt': 'fine\n' });
  // A page of its own: the refused export's answer (422) is a failed request the browser logs,
  // which the viewer fixture would count as a page error.
  const page = await browser.newPage();
  try {
    await page.goto(host.url);
    await openProject(page, dir);
    const [projectId] = readdirSync(join(dataDir, 'projects'));
    const stored = blobFile(blobsDirOf(projectStoreDir(dataDir, projectId!)), sha256('these bytes get damaged\n'));
    const bytes = readFileSync(stored);
    bytes[0] = bytes[0]! ^ 0x01;
    writeFileSync(stored, bytes);

    await page.getByRole('tab', { name: 'Store' }).click();
    await page.getByRole('button', { name: 'Export history…' }).click();
    await expect(page.getByText(/^Export failed: The stored contents .* are damaged/)).toBeVisible();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export without the damaged files' }).click();
    await downloading;
    await expect(page.getByText(/exported \(1 snapshot, .*\).* Left out, damaged or missing: damaged\.txt \(version \d+\)/)).toBeVisible();
    if (screenshots) await shoot(page, 'transfer-export-skip-damaged');
  } finally {
    await page.close();
  }
});
