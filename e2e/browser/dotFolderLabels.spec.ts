import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { writeFiles } from './fixtures/folders.js';
import { shoot } from './fixtures/shoot.js';
import { expect, openProject, selectFile, test, versions } from './fixtures/viewer.js';

// A path cut from its start (the versions' title, a deleted file's folder) keeps a leading dot
// where it is: `.github` reads `.github`, not `github.` (a neutral character laid out right to
// left). Checked on the laid-out text: the dot is drawn left of the letter after it.

const screens = process.env.HINDSIGHT_SCREENSHOTS === '1';

/** Whether the first character (the dot) of the first element matching `selector` is drawn left of its second. */
async function dotDrawnFirst(page: Page, selector: string): Promise<boolean> {
  // Evaluated in the page as a string: this file is compiled without the DOM's types.
  return page.evaluate(`(() => {
    const element = document.querySelector(${JSON.stringify(selector)});
    const text = document.createTreeWalker(element, NodeFilter.SHOW_TEXT).nextNode();
    const rect = (at) => {
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + 1);
      return range.getBoundingClientRect();
    };
    return text.data.startsWith('.') && rect(0).left < rect(1).left;
  })()`);
}

test('folder labels that begin with a dot keep it first when cut from the start', async ({ viewer, folder }) => {
  const dir = folder();
  writeFiles(dir, {
    '.github/workflows/continuous-integration-for-every-pull-request.yml': 'on: push\n',
    '.github/dependabot.yml': 'version: 2\n',
    'README.md': '# hi\n',
  });
  await openProject(viewer, dir);
  await viewer.setViewportSize({ width: 900, height: 700 });
  await selectFile(viewer, '.github/workflows/continuous-integration-for-every-pull-request.yml');
  const title = viewer.locator('.pane-title');
  await expect(title).toHaveText('.github/workflows/continuous-integration-for-every-pull-request.yml');
  expect(await dotDrawnFirst(viewer, '.pane-title')).toBe(true);
  if (screens) await shoot(viewer, '51-dot-folder-title');

  rmSync(join(dir, '.github/dependabot.yml'));
  await viewer.getByRole('button', { name: /^Deleted/ }).click();
  const deletedFolder = viewer.locator('.deleted-folder').first();
  await expect(deletedFolder).toHaveText('.github', { timeout: 30_000 });
  expect(await dotDrawnFirst(viewer, '.deleted-folder')).toBe(true);
  await viewer.locator('.deleted-row').first().click();
  await expect(versions(viewer).first()).toContainText('Deleted', { timeout: 30_000 });
  expect(await dotDrawnFirst(viewer, '.pane-title')).toBe(true);
  if (screens) await shoot(viewer, '52-dot-folder-deleted');
});
