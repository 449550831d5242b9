// `npm start`: the main job, everywhere. Where Electron can start, the app (electron-vite dev).
// Where it cannot (no Electron binary, no display), one line says
// why; then whatever the browser viewer needs and is missing is built (the CLI, the viewer), and
// `hindsight serve` starts and prints the URL to open. Arguments after `--` go to the command.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { refuseUnsupportedNode } from './nodeRuntime.mjs';
import { runInOwnGroup } from './runGroup.mjs';
import { appBlocker, missingBuilds } from './startPlan.mjs';

// Before anything else: an older Node.js gets one line saying what to install.
refuseUnsupportedNode('npm start');

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);

const blocker = appBlocker({ root, env: process.env, platform: process.platform });
if (blocker === null) {
  run([`${root}node_modules/electron-vite/bin/electron-vite.js`, 'dev', ...(args.length ? ['--', ...args] : [])]);
} else {
  console.log(`Electron cannot start here: ${blocker}. Serving the viewer to a browser instead.`);
  for (const missing of missingBuilds(root)) {
    if (missing === 'cli') {
      console.log('Building the hindsight CLI (out/cli/)...');
      const { buildCli } = await import('./build-cli.mjs');
      await buildCli();
    } else {
      console.log('Building the viewer (out/renderer/)...');
      const built = spawnSync(process.execPath, [`${root}node_modules/electron-vite/bin/electron-vite.js`, 'build'], {
        cwd: root,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      if (built.status !== 0) {
        console.error('The viewer could not be built (see above); `npm run build` shows the whole output.');
        process.exit(built.status ?? 1);
      }
    }
  }
  run([`${root}out/cli/hindsight.js`, 'serve', ...args]);
}

/** Runs a Node script in the foreground as a group of its own: Ctrl+C ends it and all it started. */
function run(argv) {
  runInOwnGroup(argv, { cwd: root });
}
