// Runs the browser e2e suite (Playwright in Debian's Chromium against `hindsight serve`).
// Without a browser on the machine the suite is skipped and says so by name; with CI=true a
// missing browser is a failure. Builds the CLI and the renderer first when they are missing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const chromium = process.env.HINDSIGHT_CHROMIUM ?? '/usr/bin/chromium';
const ci = process.env.CI === 'true';
const extra = process.argv.slice(2);

if (!existsSync(chromium)) {
  const message = `e2e browser suite (e2e/browser): SKIPPED, no Chromium at ${chromium} (apt-get install chromium, or set HINDSIGHT_CHROMIUM)`;
  if (ci) {
    console.error(`${message}\nCI=true: a missing browser is a failure.`);
    process.exit(1);
  }
  console.log(message);
  process.exit(0);
}

if (!existsSync(`${root}out/cli/hindsight.js`)) {
  const { buildCli } = await import('./build-cli.mjs');
  await buildCli();
}
if (!existsSync(`${root}out/renderer/index.html`)) {
  await buildRenderer();
}

const run = spawnSync(process.execPath, [`${root}node_modules/@playwright/test/cli.js`, 'test', ...extra], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);

/** The app's build (electron-vite): the viewer and the host's page bridge into out/renderer/. */
async function buildRenderer() {
  const built = spawnSync(process.execPath, [`${root}node_modules/electron-vite/bin/electron-vite.js`, 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
