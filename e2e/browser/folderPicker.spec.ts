import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHost } from './fixtures/host.js';
import { shoot } from './fixtures/shoot.js';
import { expect, test } from './fixtures/viewer.js';

// "Open folder…" in the browser: the host lists the user's own folders (HINDSIGHT_BROWSE_ROOT
// stands in for the home folder here), and a project is opened by keyboard alone: arrows move,
// Enter enters, Backspace goes up and comes back onto the folder left, the path field follows.

const screens = process.env.HINDSIGHT_SCREENSHOTS === '1';

test('a project is opened through the folder picker by keyboard', async ({ page, dataDir, folder }) => {
  const home = folder('hindsight-e2e-home-');
  for (const dir of ['Documents', 'Music', 'projects/notes', 'projects/site/src']) mkdirSync(join(home, dir), { recursive: true });
  writeFileSync(join(home, 'projects/site/index.html'), '<h1>site</h1>\n');
  writeFileSync(join(home, 'projects/site/src/app.js'), 'console.log(1)\n');
  writeFileSync(join(home, 'todo.txt'), 'a file, not a folder\n');
  const host = await startHost(dataDir, { HINDSIGHT_BROWSE_ROOT: home });
  try {
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Open folder...' }).click();
    const dialog = page.getByRole('dialog');
    const list = dialog.getByRole('listbox', { name: 'Folders' });
    await expect(list).toBeFocused();
    await expect(list.getByRole('option')).toHaveText(['Documents', 'Music', 'projects']);
    await expect(dialog.getByLabel('Folder path')).toHaveValue(home);
    await expect(dialog.getByRole('button', { name: 'Up one folder' })).toBeDisabled();

    await page.keyboard.press('End');
    await expect(list.getByRole('option', { name: 'projects' })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(list.getByRole('option')).toHaveText(['notes', 'site']);
    await page.keyboard.press('Backspace');
    await expect(list.getByRole('option', { name: 'projects' })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(list.getByRole('option')).toHaveText(['notes', 'site']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(list.getByRole('option')).toHaveText(['src']);
    await page.keyboard.press('Alt+ArrowUp');
    await expect(list.getByRole('option', { name: 'site' })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(dialog.getByLabel('Folder path')).toHaveValue(join(home, 'projects/site'));
    if (screens) await shoot(page, '60-folder-picker');

    await dialog.getByRole('button', { name: 'Open', exact: true }).click();
    const tree = page.getByRole('tree', { name: 'Files' });
    await expect(tree.getByRole('treeitem', { name: 'index.html', exact: true })).toBeVisible({ timeout: 30_000 });
  } finally {
    await host.stop();
  }
});

test('Escape closes the folder picker', async ({ page, dataDir, folder }) => {
  const home = folder('hindsight-e2e-home-');
  mkdirSync(join(home, 'projects'));
  const host = await startHost(dataDir, { HINDSIGHT_BROWSE_ROOT: home });
  try {
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Open folder...' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('listbox', { name: 'Folders' }).getByRole('option')).toHaveText(['projects']);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  } finally {
    await host.stop();
  }
});
