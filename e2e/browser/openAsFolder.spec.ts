import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeBigTree, writeFiles, readText } from './fixtures/folders.js';
import { expect, openProject, test } from './fixtures/viewer.js';

// "Open as a new folder…" on a snapshot: the snapshot written into a folder the user names, with
// a progress card (bytes, time left, Cancel), the project untouched; a folder that is not empty
// refused with the engine's words.

test('a snapshot opens as a new folder, and a folder that is not empty is refused', async ({ viewer, folder }) => {
  const dir = folder();
  writeBigTree(dir, 600, 48 * 1024);
  writeFiles(dir, { 'notes.txt': 'as it was\n' });
  await openProject(viewer, dir);
  writeFileSync(join(dir, 'notes.txt'), 'changed later\n');
  await viewer.getByRole('tab', { name: 'Timeline' }).click();
  const snapshots = viewer.getByRole('list', { name: 'Snapshots' }).getByRole('listitem');
  await expect(snapshots).not.toHaveCount(1, { timeout: 30_000 });
  await snapshots.last().getByRole('button').click();
  await expect(snapshots.last()).toContainText('First copy');

  const out = folder();
  const into = join(out, 'as-it-was');
  await viewer.getByRole('button', { name: 'Open as a new folder…' }).click();
  const dialog = viewer.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'New folder' }).fill(into);
  await dialog.getByRole('button', { name: 'Write the folder' }).click();
  await expect(dialog).toBeHidden();
  await expect(viewer.getByText(`written into ${into}`)).toBeVisible({ timeout: 30_000 });
  expect(readText(into, 'notes.txt')).toBe('as it was\n');
  expect(readdirSync(into).length).toBe(readdirSync(dir).length);
  expect(statSync(join(into, 'notes.txt')).mode & 0o777).toBe(statSync(join(dir, 'notes.txt')).mode & 0o777);
  expect(readText(dir, 'notes.txt')).toBe('changed later\n'); // the project was not touched

  const busy = join(out, 'busy');
  mkdirSync(busy);
  writeFileSync(join(busy, 'mine.txt'), 'mine');
  await viewer.getByRole('button', { name: 'Open as a new folder…' }).click();
  await dialog.getByRole('textbox', { name: 'New folder' }).fill(busy);
  await dialog.getByRole('button', { name: 'Write the folder' }).click();
  await expect(viewer.getByText(`${busy} is not empty`)).toBeVisible();
  expect(readdirSync(busy)).toEqual(['mine.txt']);
  rmSync(into, { recursive: true, force: true });
  expect(existsSync(into)).toBe(false);
});
