import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import { recordPaths } from '../../electron/history/versions/recordPaths.js';
import { CLI, startHost } from './fixtures/host.js';
import { shoot } from './fixtures/shoot.js';
import { expect, test, versions } from './fixtures/viewer.js';

// A file with a long history in the viewer: the newest page of versions shows first, the next
// older page loads when the end of the list scrolls into view, down to the baseline.

const VERSIONS = 150;

test('a long history shows its newest page first and loads older pages as the list scrolls', async ({ page, dataDir, folder }) => {
  const dir = folder();
  writeFileSync(join(dir, 'hot.txt'), 'version 0\n');
  execFileSync(process.execPath, [CLI, 'open', dir, '--data-dir', dataDir]);
  process.env.HINDSIGHT_COPY_WORKER ??= join(process.cwd(), 'out/cli/copyWorker.js');
  const engine = new HistoryEngine(dataDir);
  try {
    const store = engine.history(engine.locate(dir));
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
    await page.getByRole('navigation', { name: 'Projects' }).getByRole('button', { name: /hindsight-e2e-project-/ }).click();
    await page.getByRole('treeitem', { name: 'hot.txt' }).click();
    await expect(versions(page).first()).toContainText('Edited');
    await expect(page.getByRole('list', { name: 'Versions' }).getByRole('listitem')).toHaveCount(101); // 100 versions and the button
    await expect(page.getByText('100+ versions')).toBeVisible();
    if (process.env.HINDSIGHT_SCREENSHOTS === '1') await shoot(page, '21-versions-first-page');

    await page.getByRole('button', { name: 'Show older versions' }).scrollIntoViewIfNeeded();
    await expect(page.getByText(`${VERSIONS} versions`)).toBeVisible();
    await expect(versions(page).filter({ has: page.locator('[data-version]') })).toHaveCount(VERSIONS);
    await expect(versions(page).last()).toContainText('Baseline');
    await expect(page.getByRole('button', { name: 'Show older versions' })).toHaveCount(0);
  } finally {
    await host.stop();
  }
});
