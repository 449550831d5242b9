// Builds the benchmark rig into out/bench/: the runner, the first-copy bench, the compare script,
// the fixture maker, the in-process driver (which bundles the engine, so it runs as plain JS), a
// copy worker beside it, its own copy of the CLI (out/bench/cli: tests that rebuild out/cli never
// swap files under a running benchmark), and every suite of test/bench/suites/ as out/bench/suites/<name>.bench.js.
import { build } from 'esbuild';
import { readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildCli } from './build-cli.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function buildBench() {
  await buildCli('out/bench/cli');
  const suitesDir = `${root}test/bench/suites`;
  const suites = existsSync(suitesDir) ? readdirSync(suitesDir).filter((f) => f.endsWith('.bench.ts')) : [];
  const entryPoints = {
    runSuite: 'test/bench/runSuite.ts',
    firstCopyBench: 'test/bench/firstCopy/firstCopyBench.ts',
    compare: 'test/bench/compare/compareCommand.ts',
    makeFixtures: 'test/bench/fixtures/makeFixtures.ts',
    openDriver: 'test/bench/firstCopy/openDriver.ts',
    profileFirstCopy: 'test/bench/firstCopy/profileFirstCopy.ts',
    copyWorker: 'electron/history/store/copyWorker.ts',
  };
  for (const file of suites) entryPoints[`suites/${file.replace(/\.ts$/, '')}`] = `test/bench/suites/${file}`;
  await build({
    absWorkingDir: root,
    entryPoints,
    outdir: 'out/bench',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildBench();
}
