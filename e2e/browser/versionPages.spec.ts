import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import { recordPaths } from '../../electron/history/versions/recordPaths.js';
import { CLI, startHost } from './fixtures/host.js';
import { shoot } from './fixtures/shoot.js';
import { expect, test, versions } from './fixtures/viewer.js';

// A file with a long history in the viewer: the newest page of versions shows first, numbered
// from the file's version count and its Current row marked; the next older page loads when the
// end of the list scrolls into view, down to the first copy; versions from different pages can
// be picked and compared.

const VERSIONS = 150;

test('a long history shows its newest page first and loads older pages as the list scrolls', async ({ page, dataDir, folder }) => {
  const dir = folder();
  writeFileSync(join(dir, 'hot.txt'), 'version 0\n');
  execFileSync(process.execPath, [CLI, 'open', dir, '--data-dir', dataDir]);
  process.env.HINDSIGHT_COPY_WORKER ??= join(process.cwd(), 'out/cli/copyWorker.js');
  const engine = new HistoryEngine(dataDir);
  try {
    const store = engine.store(engine.locate(dir));
    for (let i = 1; i < VERSIONS; i++) {
      writeFileSync(join(dir, 'hot.txt'), `version ${i}\n`);
      await recordPaths(store, ['hot.txt'], { kind: 'change', label: null });
    }
  } finally {
    engine.close();
  }

  const host = await startHost(dataDir);
  try {
    await page.goto(host.url);
    await page
      .getByRole('navigation', { name: 'Projects' })
      .getByRole('button', { name: /hindsight-e2e-project-/ })
      .click();
    await page.getByRole('treeitem', { name: 'hot.txt' }).click();
    await expect(versions(page).first()).toContainText('Edited');
    await expect(page.getByRole('list', { name: 'Versions' }).getByRole('listitem')).toHaveCount(101); // 100 versions and the button
    // Numbered from the file's version count, before the older pages are read.
    await expect(page.getByText(`${VERSIONS} versions`)).toBeVisible();
    await expect(versions(page).first()).toContainText(`Version ${VERSIONS}`);
    await expect(versions(page).nth(99)).toContainText(`Version ${VERSIONS - 99}`);
    await expect(versions(page).first()).toContainText('Current');
    if (process.env.HINDSIGHT_SCREENSHOTS === '1') await shoot(page, '21-versions-first-page');

    await page.getByRole('button', { name: 'Show older versions' }).scrollIntoViewIfNeeded();
    await expect(versions(page).filter({ has: page.locator('[data-version]') })).toHaveCount(VERSIONS);
    await expect(versions(page).last()).toContainText('First copy');
    await expect(versions(page).last()).toContainText('Version 1');

    // Two versions on different pages picked and compared.
    await page.getByRole('checkbox', { name: `Compare version ${VERSIONS}`, exact: true }).check();
    await page.getByRole('checkbox', { name: 'Compare version 1', exact: true }).check();
    await expect(page.getByText(`Version 1 ↔ Version ${VERSIONS}`).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Show older versions' })).toHaveCount(0);
  } finally {
    await host.stop();
  }
});
