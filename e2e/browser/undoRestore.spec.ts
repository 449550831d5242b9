import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readText, writeFiles } from './fixtures/folders.js';
import { shoot } from './fixtures/shoot.js';
import { expect, openProject, test } from './fixtures/viewer.js';

// A restore undone from its Timeline entry after the page was reloaded (no toast left to offer
// it): "Undo this restore" previews only the files that restore changed and puts them back as
// they were just before it; a file edited since that the restore did not touch stays.
// HINDSIGHT_SCREENSHOTS=1 also writes the dialog's screenshots (test-results/screens/).

test('a restore undone from its Timeline entry after a reload puts back only what it changed', async ({ viewer, folder }) => {
  const dir = folder();
  writeFiles(dir, { 'a.txt': 'a1\n', 'b.txt': 'b1\n', 'c.txt': 'c1\n' });
  await openProject(viewer, dir);
  await viewer.getByRole('tab', { name: 'Timeline' }).click();
  const snapshots = viewer.getByRole('list', { name: 'Snapshots' }).getByRole('listitem');
  writeFileSync(join(dir, 'a.txt'), 'a2\n');
  writeFileSync(join(dir, 'b.txt'), 'b2\n');
  await expect(snapshots.first()).toContainText('2 files', { timeout: 30_000 });

  // The project restored to its first copy from the Timeline.
  await snapshots.filter({ hasText: 'First copy' }).getByRole('button').click();
  await viewer.getByRole('button', { name: 'Restore project…' }).click();
  const restoreDialog = viewer.getByRole('dialog');
  await restoreDialog.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect(restoreDialog).toBeHidden();
  await expect.poll(() => readText(dir, 'a.txt')).toBe('a1\n');
  await expect(snapshots.first()).toContainText('Restored');

  // Later, another file edited and recorded; then the page reloaded: no toast offers the undo now.
  writeFileSync(join(dir, 'c.txt'), 'c2\n');
  await expect(snapshots.first()).toContainText('c.txt', { timeout: 30_000 });
  await viewer.reload();
  await viewer.getByRole('tab', { name: 'Timeline' }).click();
  await snapshots.filter({ hasText: 'Restored' }).getByRole('button').click();
  await viewer.getByRole('button', { name: 'Undo this restore' }).click();
  const dialog = viewer.getByRole('dialog', { name: 'Undo this restore' });
  const preview = dialog.getByLabel('Restore preview');
  await expect(preview).toContainText('Written (2)');
  await expect(preview).toContainText('a.txt');
  await expect(preview).not.toContainText('c.txt');
  if (process.env.HINDSIGHT_SCREENSHOTS) await shoot(viewer, 'undo-restore-dialog');
  await dialog.getByRole('button', { name: 'Undo restore' }).click();
  await expect(dialog).toBeHidden();
  await expect(viewer.getByRole('status').filter({ hasText: 'Undone: 2 files are back as before the restore.' })).toBeVisible();

  expect(readText(dir, 'a.txt')).toBe('a2\n');
  expect(readText(dir, 'b.txt')).toBe('b2\n');
  expect(readText(dir, 'c.txt')).toBe('c2\n');
  await expect(snapshots.first()).toContainText('Undid');
  await snapshots.first().getByRole('button').click();
  if (process.env.HINDSIGHT_SCREENSHOTS) await shoot(viewer, 'undo-restore-entry');
});
