import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { blobsDirOf, projectStoreDir } from '../../electron/history/store/storeLayout.js';
import { blobFile } from '../../test/helpers/storedBlob.js';
import { sha256 } from '../../test/helpers/writeTree.js';
import { CLI } from './fixtures/host.js';
import { writeFiles } from './fixtures/folders.js';
import { expect, openProject, selectFile, test, versions } from './fixtures/viewer.js';

// Searching every version from the viewer: Ctrl+Shift+F, the results grouped by file, a click that
// opens the version holding the text with it marked and in view, the "gone" marker's compare, and
// the versions a search could not read said by name.

const CONFIG_V1 = `${Array.from({ length: 80 }, (_, i) => `// filler line ${i + 1}`).join('\n')}\nconst legacyTimeout = 250;\nexport const retries = 3;\n`;
const CONFIG_V2 = 'export const retries = 4;\n';

test('search history: find a deleted line, open the version that had it, compare with the current file', async ({ viewer, folder }) => {
  const dir = folder();
  writeFiles(dir, { 'src/config.ts': CONFIG_V1, 'notes.md': 'retries are configured in src/config.ts\n' });
  await openProject(viewer, dir);
  writeFileSync(join(dir, 'src/config.ts'), CONFIG_V2);
  await selectFile(viewer, 'src/config.ts');
  await expect(versions(viewer)).toHaveCount(2, { timeout: 30_000 });

  await viewer.keyboard.press('Control+Shift+F');
  const box = viewer.getByRole('searchbox', { name: 'Search history' });
  await expect(box).toBeFocused();
  await box.fill('legacytimeout');
  await box.press('Enter');

  const results = viewer.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('listitem').filter({ has: viewer.getByRole('heading', { name: 'src/config.ts' }) })).toHaveCount(1);
  await expect(results).toContainText('1 version');
  await expect(results.getByText('gone', { exact: true })).toBeVisible();
  await expect(viewer.getByRole('tab', { name: 'Search' })).toHaveAttribute('aria-selected', 'true');

  // The match opens the baseline (the version that held it) with the text marked and scrolled into view.
  await results.getByRole('button', { name: /^Open src\/config\.ts line 81/ }).click();
  await expect(viewer.getByRole('tab', { name: 'Files' })).toHaveAttribute('aria-selected', 'true');
  await expect(versions(viewer).last().getByRole('button')).toHaveAttribute('aria-current', 'true');
  const mark = viewer.locator('.cm-search-hit');
  await expect(mark).toHaveText('legacyTimeout');
  await expect(mark).toBeInViewport();

  // Back to the results: the compare shows this version against the file as it is now.
  await viewer.getByRole('tab', { name: 'Search' }).click();
  await viewer.getByRole('button', { name: /^Compare src\/config\.ts as it held the text/ }).click();
  await expect(viewer.getByLabel('Compare with')).toHaveValue('disk');
  // (The editor draws only the lines in view: the version's first line and the current file's.)
  await expect(viewer.getByTestId('diff-view').locator('.cm-line', { hasText: 'filler line 1' }).first()).toBeVisible();
  await expect(viewer.getByTestId('diff-view').locator('.cm-line', { hasText: 'retries = 4' }).first()).toBeVisible();

  // A regex, and a 2-character query that reads every version.
  await box.fill('retries = [0-9]');
  await viewer.getByRole('button', { name: 'Regular expression' }).click();
  await box.press('Enter');
  await expect(results.getByRole('heading')).toHaveText(['src/config.ts']);
  await expect(results.getByRole('button', { name: /^Open src\/config\.ts line/ })).toHaveCount(2);
  await viewer.getByRole('button', { name: 'Regular expression' }).click();
  await box.fill('ur');
  await box.press('Enter');
  await expect(viewer.getByRole('status').filter({ hasText: 'Every version was read' })).toBeVisible();
  await expect(results.getByRole('heading')).toHaveText(['notes.md']);
});

test('search history says which versions it could not read, by file', async ({ viewer, folder, dataDir }) => {
  const dir = folder();
  writeFiles(dir, { 'src/app.ts': 'const needle = 1;\n', 'notes.md': 'nothing here\n' });
  // Recorded by the CLI, then the file changed, and the old version's blob removed before the
  // host opens the project: the folder no longer holds those bytes, so nothing can file them again.
  execFileSync(process.execPath, [CLI, 'open', dir, '--data-dir', dataDir]);
  writeFileSync(join(dir, 'src/app.ts'), 'const thread = 2;\n');
  execFileSync(process.execPath, [CLI, 'open', dir, '--data-dir', dataDir]);
  const [projectId] = readdirSync(join(dataDir, 'projects'));
  rmSync(blobFile(blobsDirOf(projectStoreDir(dataDir, projectId!)), sha256('const needle = 1;\n')));
  await viewer.reload();
  await viewer
    .getByRole('navigation', { name: 'Projects' })
    .getByRole('button', { name: /hindsight-e2e-project-/ })
    .click();
  await expect(viewer.getByRole('tree', { name: 'Files' })).toBeVisible();

  await viewer.keyboard.press('Control+Shift+F');
  const box = viewer.getByRole('searchbox', { name: 'Search history' });
  await box.fill('needle');
  await box.press('Enter');
  await expect(viewer.getByRole('status').filter({ hasText: 'No version read holds “needle”.' })).toBeVisible();
  const note = viewer.getByRole('note', { name: 'Versions the search could not read' });
  await expect(note).toContainText('1 version could not be read (stored contents missing or damaged) and was skipped');
  await expect(note.getByRole('listitem')).toHaveText([/^src\/app\.ts: 1 version \(/]);
});
