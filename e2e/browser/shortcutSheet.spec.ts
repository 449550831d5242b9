import { writeFiles } from './fixtures/folders.js';
import { shoot } from './fixtures/shoot.js';
import { expect, openProject, test } from './fixtures/viewer.js';

// The shortcut sheet (?) is made from the tab list: each Ctrl+digit row names the tab that key
// selects, checked by pressing every key it lists.

const screens = process.env.HINDSIGHT_SCREENSHOTS === '1';

test('the shortcut sheet names each tab by the key that selects it', async ({ viewer, folder }) => {
  const dir = folder();
  writeFiles(dir, { 'a.txt': 'one\n' });
  await openProject(viewer, dir);
  await viewer.keyboard.press('?');
  const sheet = viewer.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  if (screens) await shoot(viewer, '50-shortcut-sheet');
  const rows = sheet.getByRole('row').filter({ hasText: /^Ctrl\+\d/ });
  const listed: [string, string][] = [];
  for (const text of await rows.allInnerTexts()) {
    const match = /^Ctrl\+(\d)\s+Show the (\w+) tab/.exec(text);
    if (match) listed.push([match[1]!, match[2]!]);
  }
  expect(listed.map(([key]) => key)).toEqual(['1', '2', '3', '4']);
  await viewer.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
  for (const [key, name] of listed) {
    await viewer.keyboard.press(`Control+${key}`);
    await expect(viewer.getByRole('tab', { name, exact: true }), `Ctrl+${key}`).toHaveAttribute('aria-selected', 'true');
  }
});
