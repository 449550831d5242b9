import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { readText, writeFiles } from './fixtures/folders.js';
import { CLI } from './fixtures/host.js';
import { shoot } from './fixtures/shoot.js';
import { expect, openProject, selectFile, test, versions } from './fixtures/viewer.js';

// History for selection: lines selected with the mouse in a version's text, "History for
// selection", and the panel lists the versions `hindsight log --lines` prints for the same
// lines (followed past lines added above them); the keyboard moves in the list, Escape closes and
// Ctrl+Shift+H opens it again from the text; "Restore this change" puts the lines back as an older
// version left them, the rest of the file kept.

const screens = process.env.HINDSIGHT_SCREENSHOTS === '1';
const lines = (...words: string[]) => words.map((w) => `${w}\n`).join('');
const STATES = [
  lines('alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'),
  // Two lines added above: the followed lines move down.
  lines('top one', 'top two', 'alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'),
  // One of them changed.
  lines('top one', 'top two', 'alpha', 'bravo', 'charlie', 'DELTA changed', 'echo', 'foxtrot', 'golf', 'hotel'),
  // A line far below changed: not part of their story.
  lines('top one', 'top two', 'alpha', 'bravo', 'charlie', 'DELTA changed', 'echo', 'foxtrot', 'golf', 'HOTEL changed'),
];

/** The text's line n (from 1), inside the editor's shadow root (Playwright's locators pierce it). */
const textLine = (page: Page, n: number) => page.locator('.content-body .cm-line').nth(n - 1);

test('History for selection lists what log --lines prints, moves by keys, and restores a change', async ({ viewer, folder, dataDir }) => {
  const dir = folder();
  writeFiles(dir, { 'list.txt': STATES[0]! });
  await openProject(viewer, dir);
  await selectFile(viewer, 'list.txt');
  for (const [i, text] of STATES.entries()) {
    if (i === 0) continue;
    writeFileSync(join(dir, 'list.txt'), text);
    await expect(versions(viewer)).toHaveCount(i + 1, { timeout: 30_000 });
  }
  await versions(viewer).first().getByRole('button').click();
  await expect(textLine(viewer, 6)).toHaveText('DELTA changed');

  // The ? sheet lists the key.
  await viewer.keyboard.press('?');
  const sheet = viewer.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet.getByRole('row').filter({ hasText: /^Ctrl\+Shift\+H\s*History for selection/ })).toHaveCount(1);
  await viewer.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);

  const button = viewer.getByRole('button', { name: 'History for selection' });
  await expect(button).toBeDisabled();
  // Lines 5-7 with the mouse: a click on line 5, a Shift+click at the end of line 7.
  await textLine(viewer, 5).click();
  await textLine(viewer, 7).click({ modifiers: ['Shift'], position: { x: 200, y: 5 } });
  await button.click();

  const panel = viewer.getByRole('region', { name: 'History for lines 5–7 of list.txt' });
  const list = panel.getByRole('list', { name: 'Versions that changed these lines' });
  await expect(list.getByRole('button')).toHaveCount(2);
  // The same versions as the CLI lists for the same lines (oldest first there, newest first here).
  const cli = (...flags: string[]) =>
    execFileSync(process.execPath, [CLI, 'log', dir, 'list.txt', '--lines', '5,7', '--data-dir', dataDir, ...flags], { encoding: 'utf8' });
  const printed = [...cli().matchAll(/^Version (\d+) /gm)].map((m) => `Version ${m[1]}`);
  const ids = (JSON.parse(cli('--json')) as { versionId: number }[]).map((v) => String(v.versionId));
  expect(printed).toEqual(['Version 1', 'Version 3']);
  await expect(list.locator('.line-version-name')).toHaveText([...printed].reverse());
  expect(await list.getByRole('button').evaluateAll((b) => b.map((e) => e.getAttribute('data-line-version')))).toEqual([...ids].reverse());
  await expect(list.getByRole('button').nth(1)).toContainText('lines 3–5, added here');

  // The newest is chosen and has the keyboard; Down goes to Version 1, whose change shows.
  await expect(list.getByRole('button').first()).toBeFocused();
  const change = panel.getByRole('group', { name: /What Version 3 changed/ });
  await expect(change.locator('.line-removed')).toHaveText(['6− delta']);
  await expect(change.locator('.line-added')).toHaveText(['6+ DELTA changed']);
  await viewer.keyboard.press('ArrowDown');
  await expect(list.getByRole('button').nth(1)).toBeFocused();
  await expect(list.getByRole('button').nth(1)).toHaveAttribute('aria-current', 'true');
  const first = panel.getByRole('group', { name: /What Version 1 changed/ });
  await expect(first.locator('.line-added')).toHaveText(['3+ charlie', '4+ delta', '5+ echo']);
  // Tab reaches its Restore this change.
  await viewer.keyboard.press('Tab');
  await expect(first.getByRole('button', { name: 'Restore this change' })).toBeFocused();

  // The text is drawn again in the other colour scheme (its editor built again): the lines stay selected.
  await viewer.emulateMedia({ colorScheme: 'dark' });
  await viewer.emulateMedia({ colorScheme: 'light' });
  // Escape closes it and gives the keyboard back to the text, where the lines are still selected.
  await viewer.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await viewer.keyboard.press('Control+Shift+H');
  await expect(panel).toBeVisible();
  await expect(list.getByRole('button')).toHaveCount(2);

  // Version 1's lines back into the file: "delta" returns, the lines above and the change below stay.
  await list.getByRole('button').nth(1).click();
  if (screens) await shoot(viewer, '55-history-for-selection');
  await first.getByRole('button', { name: 'Restore this change' }).click();
  const restored = STATES[3]!.replace('DELTA changed\n', 'delta\n');
  await expect.poll(() => readText(dir, 'list.txt')).toBe(restored);
  await expect(viewer.getByText(/^Restored lines 3–5 of list\.txt as Version 1/)).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Undo' })).toBeVisible();
});
