import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Tests run the engine from its TypeScript sources, but the copy workers and the CLI child
// processes run built files: build them once before any test starts. The viewer the CLI serves is
// built by `npm run build` (npm test runs it first); a fresh clone where only vitest runs builds it
// here, so no test depends on what an earlier command left in out/.
export default async function setup(): Promise<void> {
  // @ts-expect-error the build script is plain JavaScript without types
  const { buildCli } = await import('../../scripts/build-cli.mjs');
  await buildCli();
  const root = fileURLToPath(new URL('../..', import.meta.url));
  if (!existsSync(`${root}out/renderer/index.html`)) {
    execFileSync(process.execPath, [`${root}node_modules/electron-vite/bin/electron-vite.js`, 'build'], { cwd: root, stdio: 'ignore' });
  }
}
