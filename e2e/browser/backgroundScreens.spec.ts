import { writeFiles } from './fixtures/folders.js';
import { shoot } from './fixtures/shoot.js';
import { expect, openFolder, test } from './fixtures/viewer.js';

// The app-only screens of recording in the background (the login question after the first
// project, the close notice), shot in light and dark (HINDSIGHT_SCREENSHOTS=1). The browser host
// starts no app at login and closes no window, so the page is told it is the app's window and
// main's closeNotice command is handed to it as main would send it; answers go nowhere here.

test.skip(process.env.HINDSIGHT_SCREENSHOTS !== '1', 'screenshots: set HINDSIGHT_SCREENSHOTS=1 to write them');

test('the login question and the close notice, light and dark', async ({ page, viewer, folder }) => {
  await page.addInitScript(() => {
    const scope = globalThis as unknown as { hindsight?: unknown; emitAppEvent?: (event: unknown) => void };
    let bridge: unknown;
    Object.defineProperty(scope, 'hindsight', {
      configurable: true,
      get: () => bridge,
      set: (real: { host: object; onEvent(listener: (event: unknown) => void): () => void }) => {
        bridge = {
          ...real,
          host: { ...real.host, kind: 'electron' },
          setStartAtLogin: async () => ({ ok: true, value: null }),
          closeWindow: async () => ({ ok: true, value: null }),
          onEvent: (listener: (event: unknown) => void) => {
            scope.emitAppEvent = listener;
            return real.onEvent(listener);
          },
        };
      },
    });
  });
  await viewer.reload();
  const dir = folder('hindsight-e2e-notes-');
  writeFiles(dir, { 'notes.txt': 'first line\n' });
  await openFolder(viewer, dir);
  const question = viewer.getByRole('dialog', { name: 'Start Hindsight when you log in?' });
  await expect(question).toBeVisible();
  await shoot(viewer, '40-login-question');
  await question.getByRole('button', { name: 'Not now' }).click();

  await viewer.evaluate(() =>
    (globalThis as unknown as { emitAppEvent(event: unknown): void }).emitAppEvent({ event: 'appCommand', payload: { command: 'closeNotice' } }),
  );
  const notice = viewer.getByRole('dialog', { name: 'Hindsight keeps recording' });
  await expect(notice).toBeVisible();
  await shoot(viewer, '41-close-notice');
});
