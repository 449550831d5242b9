import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { writeBigTree, writeFiles, readText } from './fixtures/folders.js';
import { expect, openFolder, openProject, progressSeen, selectFile, test, versions } from './fixtures/viewer.js';

// The viewer in Chromium against the browser host, on generated folders: each test is one thing
// a user does, checked on the disk as well as on the screen.

const NOTES_V1 = 'first line\nsecond line\n';
const NOTES_V2 = 'first line\nsecond line, edited\nthird line\n';

/** A project whose notes.txt was edited after the baseline, selected, with both versions listed. */
async function notesWithTwoVersions(viewer: Page, dir: string): Promise<string> {
  writeFiles(dir, { 'notes.txt': NOTES_V1 });
  await openProject(viewer, dir);
  writeFileSync(join(dir, 'notes.txt'), NOTES_V2);
  await selectFile(viewer, 'notes.txt');
  await expect(versions(viewer)).toHaveCount(2, { timeout: 30_000 });
  return dir;
}

test('opening a folder shows the first copy progress, then the tree', async ({ viewer, folder }) => {
  const big = folder();
  writeBigTree(big, 1_500, 48 * 1024);
  writeFiles(big, { 'README.md': '# big\n' });
  await openProject(viewer, big);
  const seen = await progressSeen(viewer);
  expect(seen.values.length, 'a progress bar with aria-valuenow was shown').toBeGreaterThan(0);
  expect(Math.max(...seen.values)).toBeLessThanOrEqual(100);
  await expect(viewer.getByRole('treeitem', { name: 'README.md' })).toBeVisible();
  await expect(viewer.getByRole('treeitem', { name: 'd0' })).toBeVisible();
});

test('two folders copying at once each show their own progress', async ({ viewer, folder }) => {
  const a = folder();
  const b = folder();
  writeBigTree(a, 2_000, 64 * 1024);
  writeBigTree(b, 2_000, 64 * 1024);
  // The second open starts as soon as the first one's dialog gives way to its progress card.
  await openFolder(viewer, a);
  await openFolder(viewer, b);
  await expect(viewer.getByRole('tree', { name: 'Files' })).toBeVisible();
  await expect(viewer.getByRole('navigation', { name: 'Projects' }).getByRole('listitem')).toHaveCount(2);
  expect((await progressSeen(viewer)).maxBars).toBeGreaterThanOrEqual(2);
});

test('an edit on disk appears as a new version without a reload', async ({ viewer, folder }) => {
  const dir = folder();
  writeFiles(dir, { 'notes.txt': NOTES_V1, 'src/app.js': 'export const a = 1;\n' });
  await openProject(viewer, dir);
  await selectFile(viewer, 'notes.txt');
  await expect(versions(viewer)).toHaveCount(1);
  await expect(versions(viewer).first()).toContainText('First copy');
  writeFileSync(join(dir, 'notes.txt'), NOTES_V2);
  await expect(versions(viewer)).toHaveCount(2, { timeout: 30_000 });
  await expect(versions(viewer).last()).toContainText('First copy');
  await expect(viewer.getByRole('treeitem', { name: 'notes.txt' })).toBeVisible();
});

test('arrow keys move through the versions, Home and End jump to the ends', async ({ viewer, folder }) => {
  await notesWithTwoVersions(viewer, folder());
  const newest = versions(viewer).first().getByRole('button');
  const baseline = versions(viewer).last().getByRole('button');
  await newest.click();
  await viewer.keyboard.press('ArrowDown');
  await expect(baseline).toBeFocused();
  await expect(baseline).toHaveAttribute('aria-current', 'true');
  await viewer.keyboard.press('ArrowDown'); // stops at the end
  await expect(baseline).toBeFocused();
  await viewer.keyboard.press('Home');
  await expect(newest).toBeFocused();
  await expect(newest).toHaveAttribute('aria-current', 'true');
  await viewer.keyboard.press('End');
  await expect(baseline).toHaveAttribute('aria-current', 'true');
});

test('compare, restore through the confirm dialog, then undo', async ({ viewer, folder }) => {
  const dir = await notesWithTwoVersions(viewer, folder());

  // Compare the baseline with the file on disk, side by side and inline.
  await versions(viewer).last().getByRole('button').click();
  await viewer.getByLabel('Compare with').selectOption('disk');
  // CodeMirror lives in a shadow root: CSS locators pierce it, text assertions on the host do not.
  const line = (text: string) => viewer.getByTestId('diff-view').locator('.cm-line', { hasText: text });
  await expect(line('second line, edited')).toBeVisible();
  await expect(line('third line')).toBeVisible();
  await expect(viewer.getByTestId('diff-view').locator('.cm-mergeView')).toBeVisible();
  await viewer.getByRole('button', { name: 'Inline' }).click();
  await expect(line('third line')).toBeVisible();
  await expect(viewer.getByTestId('diff-view').locator('.cm-mergeView')).toHaveCount(0);
  await viewer.getByLabel('Compare with').selectOption('none');

  // Restore the baseline: a confirm dialog first, then the exact bytes on disk.
  await viewer.getByRole('button', { name: 'Restore this version' }).click();
  const dialog = viewer.getByRole('dialog');
  await expect(dialog).toContainText('notes.txt');
  await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => readText(dir, 'notes.txt')).toBe(NOTES_V1);

  // Undo from the toast brings back what the file held before the restore.
  await viewer.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => readText(dir, 'notes.txt')).toBe(NOTES_V2);
});

test('a deleted file is shown on request and restored', async ({ viewer, folder }) => {
  const dir = folder();
  writeFiles(dir, { 'docs/guide.md': '# Guide\n\nKeep me.\n', 'keep.txt': 'stay\n' });
  await openProject(viewer, dir);
  rmSync(join(dir, 'docs/guide.md'));
  await viewer.getByLabel('Show deleted files').check();
  await selectFile(viewer, 'docs/guide.md');
  await expect(versions(viewer).first()).toContainText('Deleted', { timeout: 30_000 });
  await expect(versions(viewer).nth(1).getByRole('button')).toHaveAttribute('aria-current', 'true');
  await viewer.getByRole('button', { name: 'Restore this version' }).click();
  await viewer.getByRole('dialog').getByRole('button', { name: 'Restore', exact: true }).click();
  await expect.poll(() => existsSync(join(dir, 'docs/guide.md')) && readText(dir, 'docs/guide.md')).toBe('# Guide\n\nKeep me.\n');
});

test('a folder is restored to the baseline from the timeline, the rest left alone', async ({ viewer, folder }) => {
  const dir = folder();
  writeFiles(dir, { 'src/a.txt': 'a1\n', 'src/b.txt': 'b1\n', 'other.txt': 'o1\n' });
  await openProject(viewer, dir);
  writeFileSync(join(dir, 'src/a.txt'), 'a2\n');
  rmSync(join(dir, 'src/b.txt'));
  writeFileSync(join(dir, 'other.txt'), 'o2\n');
  await viewer.getByRole('tab', { name: 'Timeline' }).click();
  const snapshots = viewer.getByRole('list', { name: 'Snapshots' }).getByRole('listitem');
  await expect(snapshots).not.toHaveCount(1, { timeout: 30_000 });
  await snapshots.last().getByRole('button').click();
  await expect(snapshots.last()).toContainText('First copy');
  await viewer.getByRole('button', { name: 'Restore a folder…' }).click();
  const dialog = viewer.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Folder' }).fill('src');
  await expect(dialog.getByLabel('Restore preview')).toBeVisible();
  await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => readText(dir, 'src/a.txt')).toBe('a1\n');
  expect(readText(dir, 'src/b.txt')).toBe('b1\n');
  expect(readText(dir, 'other.txt')).toBe('o2\n');
});

test.describe('with a corrupt config.json', () => {
  test.use({ configJson: '{"version": 1, "projects": [ oops' });

  test('a banner names the backup', async ({ viewer }) => {
    const banner = viewer.getByRole('alert').filter({ hasText: 'settings file' });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('config.json.corrupt-');
    // The empty list says why it is empty, instead of "no projects yet".
    await expect(viewer.getByText('listed again once the settings file is fixed')).toBeVisible();
  });
});

test.describe('with a remote set', () => {
  test.use({
    configJson: JSON.stringify({
      version: 1,
      remotes: [{ name: 'backup', url: 's3://team-bucket/notes', endpoint: 'http://127.0.0.1:9', region: 'us-east-1', pathStyle: true, addedAt: 0 }],
    }),
  });

  test('the Store tab shows each remote and what it still lacks', async ({ viewer, folder }) => {
    const dir = folder();
    writeFiles(dir, { 'notes.txt': NOTES_V1 });
    await openFolder(viewer, dir);
    await viewer.getByRole('tab', { name: 'Store' }).click();
    const remotes = viewer.getByRole('list', { name: 'Remotes' });
    await expect(remotes.getByText('backup', { exact: true })).toBeVisible();
    await expect(remotes.getByText('s3://team-bucket/notes')).toBeVisible();
    await expect(remotes.getByRole('status')).toHaveText('Never pushed: 1 snapshot to send.');

    // Pull asks the remote; this one cannot answer, and the failure is said under the list.
    const pull = remotes.getByRole('button', { name: 'Pull from backup' });
    await pull.click();
    await expect(viewer.getByText('The pull failed')).toBeVisible();
    await expect(pull).toBeEnabled();
    // The browser host has no keychain: the credentials form says what is used instead, and offers no secret field.
    await expect(remotes.getByRole('note')).toHaveText(/this host has no keychain to keep them in; pushes use the AWS environment variables or profile/);
    await expect(remotes.getByLabel('Secret access key')).toHaveCount(0);
  });
});
