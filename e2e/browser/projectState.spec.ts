import { renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { writeFiles } from './fixtures/folders.js';
import { expect, openProject, test } from './fixtures/viewer.js';

// A project's folder that moves while the viewer is open: looked at again when the window comes
// back to the front and when the project is chosen, shown as gone with one banner (never a toast
// per click), present again once it is back (heard by the host's recorder, or looked at by Check
// again while recording is paused); Locate… follows it to its new place; Remove from list forgets
// it. A reload comes back to the same project and tab.

function banner(page: Page) {
  return page.getByRole('alert').filter({ hasText: 'not there any more' });
}

function projectButton(page: Page, name: RegExp) {
  return page.getByRole('navigation', { name: 'Projects' }).getByRole('button', { name });
}

/** The window coming back to the front (what a user's Alt+Tab does). */
async function focusWindow(page: Page): Promise<void> {
  await page.evaluate(() => (globalThis as unknown as { dispatchEvent(e: unknown): void }).dispatchEvent(new Event('focus')));
}

/** Opens a project in `parent/site`, moves its folder away, and checks the one banner; returns the folder's path. */
async function siteMovedAway(viewer: Page, parent: string): Promise<string> {
  const root = join(parent, 'site');
  writeFiles(root, { 'notes.txt': 'notes\n' });
  await openProject(viewer, root);

  renameSync(root, join(parent, 'site-away'));
  await focusWindow(viewer);
  await expect(banner(viewer)).toBeVisible();
  await expect(projectButton(viewer, /site/)).toContainText('gone');
  // Choosing it again looks again: still one banner, no toast.
  await projectButton(viewer, /site/).click();
  await projectButton(viewer, /site/).click();
  await expect(banner(viewer)).toHaveCount(1);
  await expect(viewer.getByRole('status').getByText(/does not exist|disappeared/)).toHaveCount(0);
  for (const name of ['Locate…', 'Check again', 'Remove from list']) await expect(banner(viewer).getByRole('button', { name })).toBeVisible();
  return root;
}

async function expectPresentAgain(viewer: Page): Promise<void> {
  await expect(banner(viewer)).toHaveCount(0);
  await expect(projectButton(viewer, /site/)).not.toContainText('gone');
  await expect(viewer.getByRole('treeitem', { name: 'notes.txt' })).toBeVisible();
}

test('a folder moved away is gone with one banner, present again once it is back', async ({ viewer, folder }) => {
  const parent = folder();
  const root = await siteMovedAway(viewer, parent);

  // The host's recorder watches the folder's parent: it hears the folder come back, catches it up
  // and says it is present, so the banner goes with no click (a click on Check again could find
  // it gone already).
  renameSync(join(parent, 'site-away'), root);
  await expectPresentAgain(viewer);
});

test('Check again finds a folder put back while recording is paused', async ({ viewer, folder }) => {
  // Paused, nothing hears the folder come back: only a look does.
  const paused = await viewer.evaluate(() =>
    (globalThis as unknown as { hindsight: { pauseRecording(request: { forMs: null }): Promise<unknown> } }).hindsight.pauseRecording({ forMs: null }),
  );
  expect(paused).toMatchObject({ ok: true, value: { recording: false } });
  const parent = folder();
  const root = await siteMovedAway(viewer, parent);

  renameSync(join(parent, 'site-away'), root);
  await expect(banner(viewer)).toHaveCount(1);
  await banner(viewer).getByRole('button', { name: 'Check again' }).click();
  await expectPresentAgain(viewer);
});

test('Locate… follows the folder to its new place; Remove from list forgets a project', async ({ viewer, folder }) => {
  const parent = folder();
  const root = join(parent, 'site');
  writeFiles(root, { 'notes.txt': 'notes\n' });
  await openProject(viewer, root);
  const moved = join(parent, 'site-renamed');
  renameSync(root, moved);
  await focusWindow(viewer);

  await banner(viewer).getByRole('button', { name: 'Locate…' }).click();
  const dialog = viewer.getByRole('dialog', { name: 'Locate site' });
  await dialog.getByLabel('Folder path').fill(moved);
  await dialog.getByRole('button', { name: 'Locate', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(banner(viewer)).toHaveCount(0);
  await expect(viewer.getByRole('heading', { level: 1, name: 'site-renamed' })).toBeVisible();
  await expect(viewer.getByRole('treeitem', { name: 'notes.txt' })).toBeVisible();

  renameSync(moved, join(parent, 'site-lost'));
  await focusWindow(viewer);
  await banner(viewer).getByRole('button', { name: 'Remove from list' }).click();
  await expect(projectButton(viewer, /site/)).toHaveCount(0);
  await expect(viewer.getByRole('heading', { level: 1, name: 'site-renamed' })).toHaveCount(0);
});

test('a reload comes back to the open project and tab', async ({ viewer, folder }) => {
  const first = folder('hindsight-e2e-first-');
  const second = folder('hindsight-e2e-second-');
  writeFiles(first, { 'a.txt': 'a\n' });
  writeFiles(second, { 'b.txt': 'b\n' });
  await openProject(viewer, first);
  await openProject(viewer, second);
  // The second project is shown once its first copy is done: a tab clicked before that belongs
  // to the first one's screen, and showing the second goes back to Files.
  await expect(projectButton(viewer, /hindsight-e2e-second-/)).toHaveAttribute('aria-current', 'page');
  await viewer.getByRole('tab', { name: 'Timeline' }).click();
  await expect(viewer.getByRole('tab', { name: 'Timeline' })).toHaveAttribute('aria-selected', 'true');
  await viewer.reload();
  await expect(viewer.getByRole('tab', { name: 'Timeline' })).toHaveAttribute('aria-selected', 'true');
  await expect(projectButton(viewer, /hindsight-e2e-second-/)).toHaveAttribute('aria-current', 'page');
});
