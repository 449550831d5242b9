// Builds the `hindsight` command and the copy worker it starts into out/cli/.
// npm packages stay external: they are installed beside the app, and better-sqlite3 is native.
import { build } from 'esbuild';
import { chmod } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// outdir: the bench rig builds its own copy (out/bench/cli) so tests rebuilding out/cli never
// swap files under a running benchmark.
export async function buildCli(outdir = 'out/cli') {
  await build({
    absWorkingDir: root,
    entryPoints: {
      hindsight: 'electron/cli/main.ts',
      copyWorker: 'electron/history/store/copyWorker.ts',
    },
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
    banner: { js: '#!/usr/bin/env node' },
  });
  await chmod(`${root}${outdir}/hindsight.js`, 0o755);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildCli();
}
