import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { killAtPoint } from '../../test/helpers/killAtPoint.js';
import { startCli } from '../../test/helpers/runCli.js';
import { CLI } from './fixtures/host.js';
import { writeFiles } from './fixtures/folders.js';
import { shoot } from './fixtures/shoot.js';
import { expect, test } from './fixtures/viewer.js';

// A restore killed midway (a real CLI restore, SIGKILLed once every version is written) is rolled
// back by the next open; the project then says so in a notice, naming the path edited since the
// kill that was left as it is, until dismissed.

const screenshots = process.env.HINDSIGHT_SCREENSHOTS === '1';

test('a restore killed midway: the open that rolls it back is told on the project', async ({ viewer, folder, dataDir }) => {
  const dir = folder();
  const cli = (...args: string[]) => execFileSync(process.execPath, [CLI, ...args, '--data-dir', dataDir]);
  writeFiles(dir, { 'a.txt': 'a one\n', 'b.txt': 'b one\n' });
  cli('open', dir);
  writeFiles(dir, { 'a.txt': 'a two\n', 'b.txt': 'b two\n' });
  cli('open', dir);
  const child = startCli(['restore', dir, '--snapshot', '1', '--data-dir', dataDir], { HINDSIGHT_STOP_AT: 'restore-written' });
  expect((await killAtPoint(child, 'restore-written')).signal).toBe('SIGKILL');
  writeFileSync(join(dir, 'b.txt'), 'b edited after the kill\n');

  await viewer.reload();
  await viewer
    .getByRole('navigation', { name: 'Projects' })
    .getByRole('button', { name: /hindsight-e2e-project-/ })
    .click();
  const notice = viewer.getByRole('status', { name: 'Restores finished at open' });
  await expect(notice).toContainText('A restore was stopped midway; opening the folder finished it.');
  await expect(notice).toContainText('Rolled back: 1 path put back as it was before it.');
  await expect(notice.getByRole('list', { name: 'Left as they are' })).toHaveText('b.txt left as it is (changed since the restore)');
  if (screenshots) await shoot(viewer, 'recovered-restores');
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toBeHidden();
});
