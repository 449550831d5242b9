import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { readText, writeFiles } from './fixtures/folders.js';
import { commitAll, git } from './fixtures/gitRepo.js';
import { expect, openProject, selectFile, test, versions } from './fixtures/viewer.js';

// Versions say where they came from and which one is on disk: a restore, its undo and a git
// checkout each name their row; the row identical to the disk says Current; two picked versions
// and git's HEAD and INDEX are compared. A real repository, a real watcher, real Chromium.

const V1 = 'first line\nsecond line\n';
const V2 = 'first line\nsecond line, edited\nthird line\n';

const row = (viewer: Page, n: number) => versions(viewer).nth(n);
const diffLine = (viewer: Page, text: string) => viewer.getByTestId('diff-view').locator('.cm-line', { hasText: text });

test('origin labels after a restore, an undo and a git checkout, with the Current row', async ({ viewer, folder }) => {
  const dir = folder();
  writeFiles(dir, { 'notes.txt': V1 });
  commitAll(dir);
  await openProject(viewer, dir);
  writeFileSync(join(dir, 'notes.txt'), V2);
  await selectFile(viewer, 'notes.txt');
  await expect(versions(viewer)).toHaveCount(2, { timeout: 30_000 });
  await expect(row(viewer, 0)).toContainText('Edited');
  await expect(row(viewer, 1)).toContainText('First copy');
  await expect(row(viewer, 0)).toContainText('Current');
  await expect(row(viewer, 1)).not.toContainText('Current');

  // The current version: nothing to restore, and the reason is said.
  await row(viewer, 0).getByRole('button').click();
  const restoreButton = viewer.getByRole('button', { name: 'Restore this version' });
  await expect(restoreButton).toBeDisabled();
  await expect(restoreButton).toHaveAccessibleDescription('Identical to the file on disk');

  // Restore version 1: the dialog shows what will change first.
  await row(viewer, 1).getByRole('button').click();
  await expect(restoreButton).toBeEnabled();
  await restoreButton.click();
  const dialog = viewer.getByRole('dialog');
  await expect(dialog.getByTestId('diff-view').locator('.cm-deletedChunk', { hasText: 'third line' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect.poll(() => readText(dir, 'notes.txt')).toBe(V1);
  await expect(versions(viewer)).toHaveCount(3);
  await expect(row(viewer, 0)).toContainText('Restored from version 1');
  await expect(row(viewer, 0)).toContainText('Current');

  await viewer.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => readText(dir, 'notes.txt')).toBe(V2);
  await expect(versions(viewer)).toHaveCount(4);
  await expect(row(viewer, 0)).toContainText('Undo of a restore');
  await expect(row(viewer, 0)).toContainText('Current');
  await expect(versions(viewer).filter({ hasText: 'Current' })).toHaveCount(1);

  // git takes the edit away to a branch and comes back to main: the file is rewritten by git.
  git(dir, 'checkout', '-q', '-b', 'topic');
  git(dir, 'commit', '-q', '-am', 'edit on topic');
  git(dir, 'checkout', '-q', 'main');
  // Titled with what git did, as people know the commit (short hash, subject, branch).
  await expect(row(viewer, 0)).toContainText(/Checked out `[0-9a-f]{7}` first, on main/, { timeout: 30_000 });
  await expect(row(viewer, 0)).toContainText('Current');
  expect(readText(dir, 'notes.txt')).toBe(V1);
});

test('two versions picked in the list are compared, and a version with git HEAD and INDEX', async ({ viewer, folder }) => {
  const dir = folder();
  writeFiles(dir, { 'notes.txt': V1 });
  commitAll(dir);
  await openProject(viewer, dir);
  writeFileSync(join(dir, 'notes.txt'), V2);
  await selectFile(viewer, 'notes.txt');
  await expect(versions(viewer)).toHaveCount(2, { timeout: 30_000 });
  writeFileSync(join(dir, 'notes.txt'), `${V2}fourth line\n`);
  await expect(versions(viewer)).toHaveCount(3, { timeout: 30_000 });

  await viewer.getByRole('checkbox', { name: 'Compare version 3' }).check();
  await expect(viewer.getByText('Pick another version to compare with version 3')).toBeVisible();
  await viewer.getByRole('checkbox', { name: 'Compare version 1' }).check();
  await expect(viewer.getByText('Version 1 ↔ Version 3').first()).toBeVisible();
  await expect(diffLine(viewer, 'fourth line')).toBeVisible();
  await expect(diffLine(viewer, 'third line')).toBeVisible();
  await expect(viewer.locator('.diff-legend')).toContainText('Version 1');
  await viewer.getByRole('button', { name: 'Stop comparing' }).click();
  await expect(viewer.getByRole('checkbox', { name: 'Compare version 1' })).not.toBeChecked();

  // Version 2 against what git has committed, then against what is staged.
  await row(viewer, 1).getByRole('button').click();
  await viewer.getByLabel('Compare with').selectOption('head');
  await expect(diffLine(viewer, 'second line, edited')).toBeVisible();
  await expect(viewer.locator('.diff-legend')).toContainText('Git HEAD (committed)');
  writeFileSync(join(dir, 'notes.txt'), 'staged words\n');
  git(dir, 'add', 'notes.txt');
  await viewer.getByLabel('Compare with').selectOption('index');
  await expect(diffLine(viewer, 'staged words')).toBeVisible();
});
