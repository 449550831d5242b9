import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { writeFiles } from './fixtures/folders.js';
import { expect, openProject, test, versions } from './fixtures/viewer.js';

// The viewer in a 900x700 window, as on a small laptop: the project list folds to a rail, header
// buttons wrap instead of being cut off, and the file filter (globs, letters in order, a message
// when nothing matches, Down/Enter to the first match, the name typed exactly before others) and
// the flat list of deleted files work.

test.use({ viewport: { width: 900, height: 700 } });

/** Fully inside the window and not clipped by any scrolling or clipping box around it. */
async function expectWhole(locator: Locator): Promise<void> {
  await expect(locator).toBeInViewport({ ratio: 1 });
}

async function project(viewer: Page, dir: string): Promise<void> {
  writeFiles(dir, {
    'builtin/add.c': 'int add(void);\n',
    'builtin/add.h': '#pragma once\n',
    'builtin/commit.c': 'int commit(void);\n',
    'src/lib/list.c': 'list\n',
    'src/lib/list.h': 'list.h\n',
    'README.md': 'readme\n',
    'docs/old/a.md': 'a\n',
    'docs/old/b.md': 'b\n',
  });
  await openProject(viewer, dir);
}

test('the project list folds to a rail, and the choice is kept', async ({ viewer, folder }) => {
  await project(viewer, folder());
  const nav = viewer.getByRole('navigation', { name: 'Projects' });
  const show = nav.getByRole('button', { name: 'Show the project list' });
  await expect(show).toHaveAttribute('aria-expanded', 'false');
  // Folded, every control is still there, by name.
  await expectWhole(nav.getByRole('button', { name: 'Open folder...' }));
  await expectWhole(nav.getByRole('button', { name: /hindsight-e2e-project-/ }));
  expect((await nav.boundingBox())!.width).toBeLessThan(64);

  await show.click();
  const hide = nav.getByRole('button', { name: 'Hide the project list' });
  await expect(hide).toHaveAttribute('aria-expanded', 'true');
  await expect(nav.getByRole('heading', { name: 'Projects' })).toBeVisible();
  expect((await nav.boundingBox())!.width).toBeGreaterThan(150);
  await viewer.reload();
  await expect(nav.getByRole('button', { name: 'Hide the project list' })).toBeVisible();
  await viewer.keyboard.press('Control+b');
  await expect(nav.getByRole('button', { name: 'Show the project list' })).toBeVisible();
});

test('nothing is cut off: header buttons wrap, the diff is inline', async ({ viewer, folder }) => {
  const dir = folder();
  await project(viewer, dir);
  writeFileSync(join(dir, 'README.md'), 'readme, edited\n');
  await viewer.getByRole('treeitem', { name: 'README.md' }).click();
  await expect(versions(viewer)).toHaveCount(2, { timeout: 30_000 });
  for (const name of ['Checkpoint', 'Restore this version']) await expectWhole(viewer.getByRole('button', { name }));
  for (const tab of ['Files', 'Timeline', 'Store']) await expectWhole(viewer.getByRole('tab', { name: tab }));
  await viewer.getByLabel('Compare with').selectOption('previous');
  await expect(viewer.getByRole('button', { name: 'Inline' })).toHaveAttribute('aria-pressed', 'true');
  for (const name of ['Side by side', 'Inline', 'Next change', 'Restore this version']) await expectWhole(viewer.getByRole('button', { name }));

  for (const expanded of [false, true]) {
    if (expanded) await viewer.getByRole('button', { name: 'Show the project list' }).click();
    await viewer.getByRole('tab', { name: 'Timeline' }).click();
    await viewer.getByRole('list', { name: 'Snapshots' }).getByRole('listitem').first().getByRole('button').click();
    for (const name of ['Restore project…', 'Restore a folder…', 'Checkpoint']) await expectWhole(viewer.getByRole('button', { name }));
    await viewer.getByRole('tab', { name: 'Files' }).click();
  }
});

test('the filter takes globs and letters in order, says when nothing matches, and Down or Enter goes to the first match', async ({ viewer, folder }) => {
  await project(viewer, folder());
  const tree = viewer.getByRole('tree', { name: 'Files' });
  const files = tree.getByRole('treeitem').and(viewer.locator('[aria-selected]'));
  const filter = viewer.getByLabel('Filter files');

  await filter.fill('*.h');
  await expect(files).toHaveText(['add.h', 'list.h']);
  await filter.fill('src/**/*.c');
  await expect(files).toHaveText(['list.c']);
  await filter.fill('addc');
  await expect(files).toHaveText(['add.c']);
  await filter.fill('no-such-file');
  await expect(viewer.getByRole('status').filter({ hasText: 'No files match “no-such-file”' })).toBeVisible();
  await expect(tree).toHaveCount(0);

  await filter.fill('addc');
  await filter.press('ArrowDown');
  await expect(viewer.getByRole('heading', { name: 'builtin/add.c' })).toBeVisible();
  await expect(tree).toBeFocused();
  await expect(tree.getByRole('treeitem', { name: 'add.c' })).toHaveAttribute('aria-selected', 'true');

  await filter.fill('*.c');
  await filter.press('Enter');
  await expect(viewer.getByRole('heading', { name: 'builtin/add.c' })).toBeVisible();
  await viewer.keyboard.press('ArrowDown');
  await expect(viewer.getByRole('heading', { name: 'builtin/commit.c' })).toBeVisible();
});

test('Enter in the filter opens the name typed exactly, else one starting with it, before others shown above', async ({ viewer, folder }) => {
  const dir = folder();
  writeFiles(dir, { 'a/debughelpers.py': 'a\n', 'a/helpers_test.py': 'b\n', 'c/helpers.py': 'c\n' });
  await openProject(viewer, dir);
  const filter = viewer.getByLabel('Filter files');
  await filter.fill('helpers.py');
  const files = viewer.getByRole('tree', { name: 'Files' }).getByRole('treeitem').and(viewer.locator('[aria-selected]'));
  await expect(files).toHaveText(['debughelpers.py', 'helpers.py']);
  await filter.press('Enter');
  await expect(viewer.getByRole('heading', { name: 'c/helpers.py' })).toBeVisible();
  await filter.fill('helpers');
  await filter.press('Enter');
  await expect(viewer.getByRole('heading', { name: 'a/helpers_test.py' })).toBeVisible();
});

test('deleted files as a flat list: newest first, filtered, one click to their versions', async ({ viewer, folder }) => {
  const dir = folder();
  await project(viewer, dir);
  rmSync(join(dir, 'docs/old'), { recursive: true });
  await viewer.getByRole('button', { name: 'Deleted (2)' }).click({ timeout: 30_000 });
  const list = viewer.getByRole('list', { name: 'Deleted files' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('listitem').first()).toContainText('docs/old');
  await viewer.getByLabel('Filter files').fill('b.md');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await viewer.getByLabel('Filter files').press('Enter');
  await expect(viewer.getByRole('heading', { name: 'docs/old/b.md' })).toBeVisible();
  await expect(versions(viewer).first()).toContainText('Deleted');
  await viewer.getByLabel('Filter files').fill('zzz');
  await expect(viewer.getByRole('status').filter({ hasText: 'No deleted files match “zzz”' })).toBeVisible();
  await viewer.getByLabel('Filter files').fill('');
  await list.getByRole('button').first().click();
  await viewer.keyboard.press('ArrowDown');
  await expect(list.getByRole('button').nth(1)).toBeFocused();
  await viewer.getByRole('button', { name: 'All files' }).click();
  await expect(viewer.getByRole('tree', { name: 'Files' })).toBeVisible();
});
