import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HindsightApi } from '../../shared/hindsightApi.js';
import { electronBinary, MAIN_ENTRY } from './electronBinary.js';

// The built Electron app, launched for real where an Electron binary exists. Here (no binary can
// be downloaded) every test reports itself skipped, by name, with the reason.

/** The page's globals as the tests use them (this suite is typed without DOM types). */
type PageGlobals = { hindsight: HindsightApi; require?: unknown; process?: unknown; location: { href: string }; open(url: string): unknown };

const binary = electronBinary();
test.skip(!binary.found, binary.found ? '' : `Electron e2e skipped: ${binary.reason}`);
test.skip(binary.found && !existsSync(MAIN_ENTRY), 'Electron e2e skipped: out/main/index.js is not built (run npm run build)');

let app: ElectronApplication;
let page: Page;
let dataDir: string;
let folder: string;

test.beforeEach(async () => {
  if (!binary.found) return;
  dataDir = mkdtempSync(join(tmpdir(), 'hindsight-e2e-electron-data-'));
  folder = mkdtempSync(join(tmpdir(), 'hindsight-e2e-electron-project-'));
  mkdirSync(join(folder, 'src'));
  writeFileSync(join(folder, 'src', 'a.txt'), 'alpha\n');
  app = await electron.launch({
    executablePath: binary.path,
    args: [MAIN_ENTRY, '--no-sandbox', folder],
    env: { ...process.env, HINDSIGHT_DATA_DIR: dataDir },
  });
  page = await app.firstWindow();
  await page.waitForFunction(() => (globalThis as unknown as Partial<PageGlobals>).hindsight !== undefined);
});

test.afterEach(async () => {
  if (!binary.found) return;
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(folder, { recursive: true, force: true });
});

test('the window is isolated: window.hindsight only, no Node, no ipcRenderer', async () => {
  const seen = await page.evaluate(() => ({
    host: (globalThis as unknown as PageGlobals).hindsight.host,
    require: typeof (globalThis as unknown as PageGlobals).require,
    process: typeof (globalThis as unknown as PageGlobals).process,
    keys: Object.keys((globalThis as unknown as PageGlobals).hindsight).sort(),
  }));
  expect(seen.host).toMatchObject({ kind: 'electron', nativeDialogs: true, dropPaths: true });
  expect(seen.require).toBe('undefined');
  expect(seen.process).toBe('undefined');
  expect(seen.keys).not.toContain('ipcRenderer');
  expect(seen.keys).toEqual(expect.arrayContaining(['openProject', 'fileTree', 'onEvent', 'chooseFolder', 'pathForFile']));
});

test('navigation away and new windows are blocked', async () => {
  const before = page.url();
  await page.evaluate(() => {
    (globalThis as unknown as PageGlobals).location.href = 'https://example.com/';
  });
  await page.evaluate(() => (globalThis as unknown as PageGlobals).open('https://example.com/'));
  expect(page.url()).toBe(before);
  expect(app.windows()).toHaveLength(1);
});

test('the folder given on the command line opens, and calls reach the history process', async () => {
  const projects = await page.evaluate(async () => {
    for (;;) {
      const result = await (globalThis as unknown as PageGlobals).hindsight.listProjects({});
      if (result.ok && result.value.length > 0) return result.value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  expect(projects[0]!.root).toContain('hindsight-e2e-electron-project-');
  const tree = await page.evaluate(async (projectId) => (globalThis as unknown as PageGlobals).hindsight.fileTree({ projectId }), projects[0]!.projectId);
  expect(tree).toMatchObject({ ok: true, value: [{ path: 'src/a.txt' }] });
});

test('a killed history process is restarted and the window reconnects', async () => {
  const pid = await app.evaluate(
    ({ app: electronApp }) => electronApp.getAppMetrics().find((m) => m.type === 'Utility' && m.serviceName === 'Hindsight history')?.pid,
  );
  expect(pid).toBeDefined();
  const restored = page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const states: string[] = [];
        (globalThis as unknown as PageGlobals).hindsight.onEvent((event) => {
          if (event.event !== 'connection') return;
          states.push(event.payload.state);
          if (event.payload.state === 'restored') resolve(states);
        });
      }),
  );
  process.kill(pid!, 'SIGKILL');
  expect(await restored).toEqual(['lost', 'restored']);
  expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).hindsight.listProjects({}))).toMatchObject({ ok: true });
});

test("a remote's credentials go to the OS keychain (safeStorage), never to config.json, and are never answered back", async () => {
  const hindsight = (request: unknown) => page.evaluate((r) => (globalThis as unknown as PageGlobals).hindsight.remoteCredentials(r as never), request);
  const secret = 'e2e-secret-never-in-clear';
  const status = await hindsight({ action: 'status' });
  expect(status).toMatchObject({ ok: true, value: { set: [] } });
  expect(await hindsight({ action: 'set', remote: 'origin', accessKeyId: 'AKIAE2E', secretAccessKey: '' })).toMatchObject({
    ok: false,
    error: { code: 'BAD_REQUEST' },
  });
  if (status.ok && !status.value.available) {
    // No keychain (Linux without a secret service: safeStorage's fixed key is no keychain): nothing is stored.
    expect(await hindsight({ action: 'set', remote: 'origin', accessKeyId: 'AKIAE2E', secretAccessKey: secret })).toMatchObject({
      ok: false,
      error: { code: 'KEYCHAIN_UNAVAILABLE' },
    });
    expect(existsSync(join(dataDir, 'remote-credentials.json'))).toBe(false);
    return;
  }
  const set = await hindsight({ action: 'set', remote: 'origin', accessKeyId: 'AKIAE2E', secretAccessKey: secret });
  expect(set).toEqual({ ok: true, value: { set: ['origin'], available: true } });
  expect(JSON.stringify(set)).not.toContain(secret);
  const file = join(dataDir, 'remote-credentials.json');
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(readFileSync(file, 'utf8')).not.toContain(secret);
  expect(readFileSync(file, 'utf8')).not.toContain('AKIAE2E');
  if (existsSync(join(dataDir, 'config.json'))) expect(readFileSync(join(dataDir, 'config.json'), 'utf8')).not.toContain(secret);
  expect(await hindsight({ action: 'forget', remote: 'origin' })).toEqual({ ok: true, value: { set: [], available: true } });
});

test('closing the last window keeps Hindsight recording; the first close says so in the window, once', async () => {
  const closeLast = () => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.close());
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await closeLast();
  const notice = page.getByRole('dialog', { name: 'Hindsight keeps recording' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('Quit Hindsight');
  await notice.getByRole('button', { name: 'Close window' }).click();
  await expect.poll(() => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(0);
  // Still running, and still recording: an edit becomes a version with no window open.
  writeFileSync(join(folder, 'src', 'a.txt'), 'edited with no window open\n');
  const config = () => JSON.parse(readFileSync(join(dataDir, 'config.json'), 'utf8')) as { settings?: { backgroundNoticeShown?: boolean } };
  expect(config().settings?.backgroundNoticeShown).toBe(true);
  await expect
    .poll(() => app.evaluate(({ app: electronApp }) => electronApp.getAppMetrics().some((m) => m.type === 'Utility' && m.serviceName === 'Hindsight history')))
    .toBe(true);
});

test('recording is paused and resumed through the calls the tray makes, and every window is told', async () => {
  const events = page.evaluate(
    () =>
      new Promise<boolean[]>((resolve) => {
        const seen: boolean[] = [];
        (globalThis as unknown as PageGlobals).hindsight.onEvent((event) => {
          if (event.event !== 'recording') return;
          seen.push(event.payload.recording);
          if (seen.length === 2) resolve(seen);
        });
      }),
  );
  const call = (name: 'pauseRecording' | 'resumeRecording') =>
    page.evaluate(
      (n) =>
        n === 'pauseRecording'
          ? (globalThis as unknown as PageGlobals).hindsight.pauseRecording({ forMs: null })
          : (globalThis as unknown as PageGlobals).hindsight.resumeRecording({}),
      name,
    );
  expect(await call('pauseRecording')).toMatchObject({ ok: true, value: { recording: false, resumesAt: null } });
  expect(await call('resumeRecording')).toMatchObject({ ok: true, value: { recording: true } });
  expect(await events).toEqual([false, true]);
});
