import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFiles } from './fixtures/folders.js';
import { shoot } from './fixtures/shoot.js';
import { expect, openProject, selectFile, test, versions } from './fixtures/viewer.js';

// Two versions picked in the list are compared: the header names those two, not the version that
// was selected before, and offers neither restoring nor pinning that one until Stop comparing.

const screens = process.env.HINDSIGHT_SCREENSHOTS === '1';

test('comparing Version 1 with Version 2 names them and offers no Restore Version 3', async ({ viewer, folder }) => {
  const dir = folder();
  writeFiles(dir, { 'notes.txt': 'one\n' });
  await openProject(viewer, dir);
  await selectFile(viewer, 'notes.txt');
  for (const [text, count] of [
    ['one\ntwo\n', 2],
    ['one\ntwo\nthree\n', 3],
  ] as const) {
    writeFileSync(join(dir, 'notes.txt'), text);
    await expect(versions(viewer)).toHaveCount(count, { timeout: 30_000 });
  }
  await versions(viewer).first().getByRole('button').click();
  const toolbar = viewer.locator('.content-pane .toolbar');
  await expect(toolbar.getByRole('button', { name: 'Restore this version, Version 3' })).toBeVisible();

  await viewer.getByRole('checkbox', { name: 'Compare version 1' }).check();
  await viewer.getByRole('checkbox', { name: 'Compare version 2' }).check();
  await expect(toolbar.locator('.toolbar-sub')).toHaveText('Version 1 ↔ Version 2');
  await expect(toolbar).not.toContainText('Version 3');
  await expect(toolbar.getByRole('button', { name: /Restore/ })).toHaveCount(0);
  await expect(toolbar.getByRole('button', { name: /Pin/ })).toHaveCount(0);
  await expect(viewer.locator('.content-body')).toHaveAttribute('aria-label', 'Version 1 ↔ Version 2 of notes.txt');
  if (screens) await shoot(viewer, '53-compare-two-versions');

  await toolbar.getByRole('button', { name: 'Stop comparing' }).click();
  await expect(toolbar.getByRole('button', { name: 'Restore this version, Version 3' })).toBeVisible();
  await expect(toolbar.locator('.toolbar-sub')).toContainText('Version 3');
});
