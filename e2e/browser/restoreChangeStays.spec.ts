import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readText, writeFiles } from './fixtures/folders.js';
import { shoot } from './fixtures/shoot.js';
import { expect, openProject, selectFile, test, versions } from './fixtures/viewer.js';

// "Restore this change" on a block far down a long diff: the diff drawn on the new texts opens at
// that block, not at line 1, and a switch of layout keeps the line at the top. Every tenth line of the first 150 differs, so the diff stays long.

const screens = process.env.HINDSIGHT_SCREENSHOTS === '1';
const V1 = Array.from({ length: 200 }, (_, i) => `line ${i + 1}\n`).join('');
const edited = (n: number) => n === 190 || (n <= 150 && n % 10 === 0);
const NOW = Array.from({ length: 200 }, (_, i) => (edited(i + 1) ? `line ${i + 1} edited\n` : `line ${i + 1}\n`)).join('');

test('after Restore this change the diff stays at the restored block', async ({ viewer, folder }) => {
  const dir = folder();
  writeFiles(dir, { 'long.txt': V1 });
  await openProject(viewer, dir);
  writeFileSync(join(dir, 'long.txt'), NOW);
  await selectFile(viewer, 'long.txt');
  await expect(versions(viewer)).toHaveCount(2, { timeout: 30_000 });
  await versions(viewer).nth(1).getByRole('button').click();
  await viewer.getByLabel('Compare with').selectOption('disk');
  await expect(viewer.locator('.compare-title')).toHaveText('Version 1 ↔ Current file');
  const diffLine = (text: string) => viewer.getByTestId('diff-view').locator('.cm-line', { hasText: new RegExp(`^${text}$`) });

  // F7 to the last change (the 16th), then its "Restore this change".
  await expect(diffLine('line 10 edited')).toBeVisible();
  for (let i = 0; i < 16; i += 1) await viewer.keyboard.press('F7');
  await expect(diffLine('line 190 edited')).toBeInViewport();
  await expect(viewer.locator('.diff-position')).toHaveText(/^Change 16 of 16/);
  await viewer.getByTestId('diff-view').locator('[data-block="15"]').click();
  await expect.poll(() => readText(dir, 'long.txt')).toBe(NOW.replace('line 190 edited\n', 'line 190\n'));
  // The diff of the new texts is drawn: one change fewer (the count says so once it is).
  await expect(viewer.locator('.diff-position')).toHaveText('15 changes', { timeout: 30_000 });

  // The view drawn on the new texts shows where the block was (the change above it in view),
  // not the top of the file.
  await expect(diffLine('line 150 edited')).toBeInViewport();
  await expect(diffLine('line 10 edited')).not.toBeInViewport();
  // A view of the same texts in the other layout opens at the same line.
  await viewer.getByRole('group', { name: 'Diff layout' }).getByRole('button', { name: 'Inline' }).click();
  await expect(viewer.locator('.diff-inline')).toBeVisible();
  await expect(diffLine('line 150 edited')).toBeInViewport();
  await expect(diffLine('line 10 edited')).not.toBeInViewport();
  if (screens) await shoot(viewer, '54-restore-change-stays');
});
