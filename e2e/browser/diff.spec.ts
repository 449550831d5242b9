import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { tempDir, writeFiles } from './fixtures/folders.js';
import { expect, openProject, selectFile, test, versions } from './fixtures/viewer.js';

// The diff of a real edit: a file changed at several places far apart shows as that many
// changes (the hunks `diff -u` prints), only the changed lines are marked, and next/previous
// change step through them by button and by key.

const LINES = Array.from({ length: 90 }, (_, i) => (i % 12 === 11 ? '' : `int value_${i} = compute(${i}, "item ${i}");`));

/** Four edits far apart: a line changed, three removed, four added, one more changed. */
function edited(): string[] {
  const out = LINES.slice();
  out[70] = `${out[70]} /* checked */`;
  out.splice(50, 0, 'if (ready) {', '  start();', '  log("started");', '}');
  out.splice(30, 3);
  out[8] = 'int value_8 = compute(8, "item eight");';
  return out;
}

interface Reference {
  hunks: number;
  added: number;
  removed: number;
  addedLines: string[];
  removedLines: string[];
}

/** What `diff -u` says about the same two texts: its hunks, and the lines it adds and removes. */
function reference(before: string, after: string): Reference {
  const dir = tempDir('hindsight-e2e-diff-');
  writeFileSync(join(dir, 'a'), before);
  writeFileSync(join(dir, 'b'), after);
  const lines = spawnSync('diff', ['-u', join(dir, 'a'), join(dir, 'b')], { encoding: 'utf8' }).stdout.split('\n');
  const addedLines = lines.filter((l) => l.startsWith('+') && !l.startsWith('+++')).map((l) => l.slice(1));
  const removedLines = lines.filter((l) => l.startsWith('-') && !l.startsWith('---')).map((l) => l.slice(1));
  return { hunks: lines.filter((l) => l.startsWith('@@ ')).length, added: addedLines.length, removed: removedLines.length, addedLines, removedLines };
}

/** The lines a view marks as changed, on one side, among those it has drawn (it draws what is near the view). */
async function markedLines(viewer: Page, selector: string, into: Set<string>): Promise<void> {
  for (const text of await viewer.getByTestId('diff-view').locator(selector).allTextContents()) into.add(text);
}

async function compareWithDisk(viewer: Page, dir: string): Promise<Reference> {
  const before = `${LINES.join('\n')}\n`;
  const after = `${edited().join('\n')}\n`;
  writeFiles(dir, { 'src/add.c': before });
  await openProject(viewer, dir);
  writeFileSync(join(dir, 'src/add.c'), after);
  await selectFile(viewer, 'src/add.c');
  await expect(versions(viewer)).toHaveCount(2, { timeout: 30_000 });
  await versions(viewer).last().getByRole('button').click();
  await viewer.getByLabel('Compare with').selectOption('disk');
  return reference(before, after);
}

test('a file edited at four places shows four changes, and only the changed lines marked', async ({ viewer, folder }) => {
  const expected = await compareWithDisk(viewer, folder());
  expect(expected).toMatchObject({ hunks: 4, added: 6, removed: 5 });
  const status = viewer.getByRole('status').filter({ hasText: /change|differences/i });
  await expect(status).toHaveText('4 changes');
  await expect(viewer.getByLabel(`${expected.added} lines added, ${expected.removed} lines removed`)).toBeVisible();

  const view = viewer.getByTestId('diff-view');
  await expect(view.locator('.cm-collapsedLines').first()).toBeVisible();
  // The collapsed-lines bar draws no characters of its own (CodeMirror's need a font that has them).
  const decorations = await view
    .locator('.cm-collapsedLines')
    .first()
    .evaluate((el) => {
      const { getComputedStyle } = globalThis as unknown as { getComputedStyle(e: unknown, pseudo: string): { content: string } };
      return [getComputedStyle(el, '::before').content, getComputedStyle(el, '::after').content];
    });
  expect(decorations).toEqual(['none', 'none']);

  // Next and previous change, by button and by key; each end stops. On the way, each side of the
  // side-by-side view has marked exactly the lines diff -u adds and removes, and no other.
  const previous = viewer.getByRole('button', { name: 'Previous change' });
  const next = viewer.getByRole('button', { name: 'Next change' });
  const markedAdded = new Set<string>();
  const markedRemoved = new Set<string>();
  await expect(previous).toBeDisabled();
  for (let change = 1; change <= 4; change++) {
    await next.click();
    await expect(status).toHaveText(new RegExp(`^Change ${change} of 4`));
    await markedLines(viewer, '.cm-merge-b .cm-changedLine', markedAdded);
    await markedLines(viewer, '.cm-merge-a .cm-changedLine', markedRemoved);
  }
  expect([...markedAdded].sort()).toEqual([...new Set(expected.addedLines)].sort());
  expect([...markedRemoved].sort()).toEqual([...new Set(expected.removedLines)].sort());
  await expect(next).toBeDisabled();
  await viewer.keyboard.press('Home');
  await previous.click();
  await previous.click();
  await previous.click();
  await expect(status).toHaveText(/^Change 1 of 4/);
  await expect(previous).toBeDisabled();
  await viewer.keyboard.press('F7');
  await viewer.keyboard.press('F7');
  await expect(status).toHaveText(/^Change 3 of 4/);
  await viewer.keyboard.press('Shift+F7');
  await expect(status).toHaveText(/^Change 2 of 4/);
  await next.click();
  await next.click();
  await expect(status).toHaveText(/^Change 4 of 4/);
  await expect(next).toBeDisabled();
  await expect(view.locator('.cm-line', { hasText: '/* checked */' })).toBeInViewport();

  // Inline: its own header (one column, which lines are which), the same changes, and the view
  // opens at the change that was shown.
  await viewer.getByRole('button', { name: 'Inline' }).click();
  await expect(viewer.locator('.diff-legend-inline')).toBeVisible();
  await expect(viewer.locator('.diff-legend-side')).toHaveCount(0);
  await expect(status).toHaveText(/^Change 4 of 4/);
  await expect(view.locator('.cm-line', { hasText: '/* checked */' })).toBeInViewport();
});

test.describe('a narrow window', () => {
  test.use({ viewport: { width: 900, height: 700 } });

  test('shows the diff inline, and side by side again when it widens', async ({ viewer, folder }) => {
    await compareWithDisk(viewer, folder());
    const sideBySide = viewer.getByRole('button', { name: 'Side by side' });
    await expect(sideBySide).toBeDisabled();
    await expect(viewer.getByRole('button', { name: 'Inline' })).toHaveAttribute('aria-pressed', 'true');
    await expect(viewer.locator('.diff-legend-inline')).toBeVisible();
    await viewer.setViewportSize({ width: 1400, height: 900 });
    await expect(sideBySide).toBeEnabled();
    await expect(sideBySide).toHaveAttribute('aria-pressed', 'true');
    await expect(viewer.getByTestId('diff-view').locator('.cm-mergeView')).toBeVisible();
  });
});
