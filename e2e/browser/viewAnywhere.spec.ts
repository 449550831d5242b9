import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI } from './fixtures/host.js';
import { shoot } from './fixtures/shoot.js';
import { expect, test } from './fixtures/viewer.js';

// `hindsight view FOLDER PATH:LINE` against a running `hindsight serve`: it finds the serve through
// the data folder, hands the deep link to the browser (a stub executable that writes it down, as
// this machine has no display), and the page opened on that link lands on the file's newest
// version with the line marked and in view.

function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

test('hindsight view opens the running viewer at a file and line', async ({ host, page, folder }) => {
  const dir = folder();
  const lines = Array.from({ length: 200 }, (_, i) => `line ${i + 1} of the notes`);
  writeFileSync(join(dir, 'notes.txt'), `${lines.join('\n')}\n`);
  writeFileSync(join(dir, 'other.txt'), 'another file\n');
  expect((await cli(['open', dir, '--data-dir', host.dataDir])).code).toBe(0);

  const stub = folder('hindsight-e2e-browser-');
  const exe = join(stub, 'browser.sh');
  writeFileSync(exe, `#!/bin/sh\nprintf '%s' "$1" > '${join(stub, 'url.txt')}'\n`);
  chmodSync(exe, 0o755);
  const shown = await cli(['view', dir, join(dir, 'notes.txt:150'), '--json', '--data-dir', host.dataDir], { HINDSIGHT_BROWSER: exe });
  expect(shown.code, shown.stderr).toBe(0);
  const answer = JSON.parse(shown.stdout) as { url: string; viewer: string; opened: boolean };
  expect(answer.viewer).toBe('serve');
  expect(answer.url.startsWith(host.url)).toBe(true);
  await expect.poll(() => readFileSync(join(stub, 'url.txt'), 'utf8')).toBe(answer.url);

  await page.goto(answer.url);
  const tree = page.getByRole('tree', { name: 'Files' });
  await expect(tree.getByRole('treeitem', { name: 'notes.txt', exact: true })).toHaveAttribute('aria-selected', 'true');
  const marked = page.locator('.cm-search-hit');
  await expect(marked).toHaveText('line 150 of the notes');
  await expect(marked).toBeInViewport();
  if (process.env.HINDSIGHT_SCREENSHOTS === '1') await shoot(page, '61-view-linked-line');
});
