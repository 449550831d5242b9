import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readText, writeFiles } from './fixtures/folders.js';
import { commitAll, git } from './fixtures/gitRepo.js';
import { expect, openProject, test, versions } from './fixtures/viewer.js';

// The timeline names what happened, says what a checkpoint holds, opens a snapshot's file at its
// version, and restores a folder picked from the snapshot's folders, warning about another branch
// and leaving no emptied folder behind after the restore's undo.

test('snapshots named by what happened; a checkpoint says what it holds; a file opens at its version', async ({ viewer, folder }) => {
  const dir = folder();
  writeFiles(dir, { 'src/a.txt': 'a1\n', 'src/b.txt': 'b1\n', 'src/c.txt': 'c1\n', 'README.md': 'read me\n' });
  commitAll(dir);
  await openProject(viewer, dir);
  await viewer.getByRole('tab', { name: 'Timeline' }).click();
  const snapshots = viewer.getByRole('list', { name: 'Snapshots' }).getByRole('listitem');

  for (const name of ['a', 'b', 'c']) writeFileSync(join(dir, `src/${name}.txt`), `${name}2\n`);
  await expect(snapshots.first()).toContainText('3 files in src/', { timeout: 30_000 });

  const long = 'Before the big refactor of the parser, the lexer and every test that reads their output';
  await viewer.getByRole('button', { name: 'Checkpoint' }).click();
  await viewer.getByLabel('Label').fill(long);
  await viewer.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(snapshots.first()).toContainText(long);
  await expect(snapshots.first().locator('.snapshot-title')).toHaveAttribute('title', `Checkpoint: ${long}`);
  await snapshots.first().getByRole('button').click();
  await expect(viewer.getByRole('region', { name: 'Snapshot', exact: true })).toContainText('4 files, 3 changed since the first copy');
  await expect(viewer.getByRole('region', { name: 'Snapshot', exact: true })).not.toContainText('0 files');
  // A checkpoint a person made is pinned as it is made, and the toggle says so without a reload.
  await expect(viewer.getByRole('button', { name: 'Pin snapshot' })).toHaveAttribute('aria-pressed', 'true');

  git(dir, 'checkout', '-q', '-b', 'topic');
  git(dir, 'commit', '-q', '-am', 'on topic');
  git(dir, 'checkout', '-q', 'main');
  await expect(snapshots.first()).toContainText('Checked out `', { timeout: 30_000 });
  await expect(snapshots.first()).toContainText(', on main');
  // The checkpoint before the checkout records no file: it is folded into the row it equals.
  await expect(snapshots.nth(1)).not.toContainText('Before checkout');

  // A file of the "3 files in src/" snapshot opens at that version, compared with the one before.
  await snapshots.filter({ hasText: '3 files in src/' }).getByRole('button').click();
  await viewer
    .getByRole('list', { name: 'Files in this snapshot' })
    .getByRole('button', { name: /src\/b\.txt/ })
    .click();
  await expect(viewer.getByRole('tab', { name: 'Files' })).toHaveAttribute('aria-selected', 'true');
  await expect(viewer.getByLabel('Compare with')).toHaveValue('previous');
  await expect(versions(viewer).filter({ has: viewer.locator('[aria-current="true"]') })).toContainText('Version 2');
  await expect(viewer.getByTestId('diff-view').locator('.cm-line', { hasText: 'b2' }).first()).toBeVisible();
});

test('a folder picked from the snapshot, a warning for another branch, and no emptied folder left by the undo', async ({ viewer, folder }) => {
  const dir = folder();
  writeFiles(dir, { 'src/keep.txt': 'k\n', 'docs/guide.md': 'g\n' });
  commitAll(dir);
  git(dir, 'checkout', '-q', '-b', 'topic');
  await openProject(viewer, dir);
  mkdirSync(join(dir, 'src/deep/er'), { recursive: true });
  writeFileSync(join(dir, 'src/deep/er/new.txt'), 'new on topic\n');
  await viewer.getByRole('tab', { name: 'Timeline' }).click();
  const snapshots = viewer.getByRole('list', { name: 'Snapshots' }).getByRole('listitem');
  await expect(snapshots.first()).toContainText('src/deep/er/new.txt', { timeout: 30_000 });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'deep on topic');
  git(dir, 'checkout', '-q', 'main');
  await expect(snapshots.first()).toContainText('Checked out `', { timeout: 30_000 });
  expect(existsSync(join(dir, 'src/deep'))).toBe(false); // git removed the folder

  await snapshots.filter({ hasText: 'src/deep/er/new.txt' }).getByRole('button').click();
  await viewer.getByRole('button', { name: 'Restore a folder…' }).click();
  const dialog = viewer.getByRole('dialog');
  const picker = dialog.getByRole('list', { name: 'Folders in this snapshot' });
  await expect(picker.getByRole('button', { name: 'src/deep/er' })).toBeVisible();
  await picker.getByRole('button', { name: 'src/deep', exact: true }).click();
  await expect(dialog.getByRole('textbox', { name: 'Folder' })).toHaveValue('src/deep');
  await expect(dialog.getByRole('alert')).toContainText('taken on branch topic, and main is checked out now');
  await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => existsSync(join(dir, 'src/deep/er/new.txt')) && readText(dir, 'src/deep/er/new.txt')).toBe('new on topic\n');

  await viewer.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => existsSync(join(dir, 'src/deep'))).toBe(false);
  expect(readText(dir, 'src/keep.txt')).toBe('k\n');
});
