import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, WebSocketRoute } from '@playwright/test';
import { writeFiles } from './fixtures/folders.js';
import { CLI, startHost } from './fixtures/host.js';
import { shoot } from './fixtures/shoot.js';
import { expect, test } from './fixtures/viewer.js';

// The tree loaded a level at a time, as the page asks for it over its socket to the host: the
// calls are read off the socket itself (every fileTree and the folder it asked for), and the
// answer to one folder can be held back to see what the tree shows while that level is on its
// way.

interface Wire {
  /** The `folder` of every fileTree call the page sent, in order ('(every file)' without one). */
  fileTreeAsks: string[];
  /** Holds the answer to the next fileTree call for this folder until the returned function runs. */
  hold(folder: string): Promise<() => void>;
}

async function wire(page: Page): Promise<Wire> {
  const fileTreeAsks: string[] = [];
  let holding: { folder: string; caught: (release: () => void) => void } | null = null;
  await page.routeWebSocket(/\/ws(\?|$)/, (ws: WebSocketRoute) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      const call = typeof message === 'string' ? (JSON.parse(message) as { call?: string; args?: { folder?: string } }) : null;
      if (call?.call === 'fileTree') {
        const folder = call.args?.folder ?? '(every file)';
        fileTreeAsks.push(folder);
        if (holding && holding.folder === folder) {
          const { caught } = holding;
          holding = null;
          caught(() => server.send(message));
          return;
        }
      }
      server.send(message);
    });
    server.onMessage((message) => ws.send(message));
  });
  return {
    fileTreeAsks,
    hold: (folder) => new Promise((resolve) => (holding = { folder, caught: resolve })),
  };
}

test('the tree asks for the top level first, a folder’s level when it opens, and every path only for the filter', async ({ page, dataDir, folder }) => {
  const dir = folder();
  writeFiles(dir, {
    'README.md': '# nested\n',
    'docs/guide.md': 'guide\n',
    'src/app.ts': 'export const app = 1;\n',
    'src/lib/util.ts': 'export const util = 1;\n',
    'src/lib/deep/er/needle.c': 'int needle;\n',
  });
  execFileSync(process.execPath, [CLI, 'open', dir, '--data-dir', dataDir]);
  const host = await startHost(dataDir);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    const socket = await wire(page);
    await page.goto(host.url);
    await page
      .getByRole('navigation', { name: 'Projects' })
      .getByRole('button', { name: /hindsight-e2e-project-/ })
      .click();
    const tree = page.getByRole('tree', { name: 'Files' });
    const item = (name: string) => tree.getByRole('treeitem', { name, exact: true });
    await expect(item('src')).toBeVisible();
    await expect(item('README.md')).toBeVisible();
    // Before any folder is opened: the top level only, never the whole list.
    expect(socket.fileTreeAsks).toEqual(['']);
    await expect(item('util.ts')).toHaveCount(0);

    // Opening a folder asks for its level, once.
    await item('src').click();
    await expect(item('lib')).toBeVisible();
    await expect(item('app.ts')).toBeVisible();
    expect(socket.fileTreeAsks).toEqual(['', 'src']);

    // While a level is on its way, a row says so (busy), never a blank.
    const held = socket.hold('src/lib');
    await item('lib').click();
    const release = await held;
    const loading = tree.getByRole('treeitem', { name: 'Loading…' });
    await expect(loading).toBeVisible();
    await expect(loading).toHaveAttribute('aria-busy', 'true');
    await expect(tree).toHaveAttribute('aria-busy', 'true');
    if (process.env.HINDSIGHT_SCREENSHOTS === '1') await shoot(page, '40-tree-level-loading');
    release();
    await expect(item('util.ts')).toBeVisible();
    await expect(loading).toHaveCount(0);
    await expect(item('deep')).toBeVisible();
    expect(socket.fileTreeAsks).toEqual(['', 'src', 'src/lib']);

    // Keys: Right opens a folder (its level read), Down moves into it.
    await item('deep').click();
    await expect(item('er')).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await expect(item('needle.c')).toBeVisible();
    expect(socket.fileTreeAsks).toEqual(['', 'src', 'src/lib', 'src/lib/deep', 'src/lib/deep/er']);
    if (process.env.HINDSIGHT_SCREENSHOTS === '1') await shoot(page, '41-tree-levels-open');

    // A change recorded in an open folder shows up there, marked as changed.
    writeFileSync(join(dir, 'src/lib/added.ts'), 'export const added = 1;\n');
    await expect(item('added.ts')).toBeVisible({ timeout: 30_000 });
    await expect(item('added.ts').locator('.changed-mark')).toHaveCount(1);
    expect(socket.fileTreeAsks).not.toContain('(every file)');

    // Closed folders stay closed: the filter reads every path, then finds the deep file.
    await item('src').click();
    await expect(item('lib')).toHaveCount(0);
    await page.getByLabel('Filter files').fill('needle');
    await expect(item('needle.c')).toBeVisible();
    await expect(tree.getByRole('treeitem')).toHaveCount(5); // the file and its four folders
    expect(socket.fileTreeAsks.filter((f) => f === '(every file)').length).toBeGreaterThan(0);
    await page.getByLabel('Filter files').press('Enter');
    await expect(page.getByRole('heading', { name: 'src/lib/deep/er/needle.c' })).toBeVisible();

    // Reloaded (the top level only again), a search hit opens the file: its folders' levels are
    // read, one each, and its row is shown selected; still no whole list.
    socket.fileTreeAsks.length = 0;
    await page.reload();
    await expect(item('src')).toBeVisible();
    expect(socket.fileTreeAsks).toEqual(['']);
    await page.keyboard.press('Control+Shift+F');
    const box = page.getByRole('searchbox', { name: 'Search history' });
    await box.fill('int needle');
    await box.press('Enter');
    await page.getByRole('button', { name: /^Open src\/lib\/deep\/er\/needle\.c line 1/ }).click();
    await expect(item('needle.c')).toHaveAttribute('aria-selected', 'true');
    expect([...socket.fileTreeAsks].sort()).toEqual(['', 'src', 'src/lib', 'src/lib/deep', 'src/lib/deep/er']);
    expect(errors).toEqual([]);
  } catch (error) {
    console.error(`host stderr:\n${host.stderr().slice(-4000)}`);
    throw error;
  } finally {
    await host.stop();
  }
});
