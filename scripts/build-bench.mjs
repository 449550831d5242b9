// Builds the benchmark rig into out/bench/: the runner, the first-copy bench, the compare script,
// the fixture maker, the in-process driver (which bundles the engine, so it runs as plain JS), a
// copy worker beside it, its own copy of the CLI (out/bench/cli: tests that rebuild out/cli never
// swap files under a running benchmark), and every suite of test/bench/suites/ as out/bench/suites/<name>.bench.js.
import { build } from 'esbuild';
import { copyFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
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
    manyCoresBench: 'test/bench/firstCopy/manyCoresBench.ts',
    diffBench: 'test/bench/diff/diffBench.ts',
    bundleBench: 'test/bench/bundle/bundleBench.ts',
    remoteBench: 'test/bench/remote/remoteBench.ts',
    startBench: 'test/bench/start/startBench.ts',
    codecBench: 'test/bench/codec/codecBench.ts',
    recordBench: 'test/bench/record/recordBench.ts',
    densityBench: 'test/bench/density/densityBench.ts',
    scaleBench: 'test/bench/scale/scaleBench.ts',
    regexBench: 'test/bench/regex/regexBench.ts',
    searchReplayBench: 'test/bench/search/searchReplayBench.ts',
    copyWorker: 'electron/history/store/copyWorker.ts',
    pruneWorker: 'electron/history/retention/pruneWorker.ts',
    indexWorker: 'electron/history/search/indexWorker.ts',
    commitWorker: 'electron/history/db/commitWorker.ts',
    searchWorker: 'electron/history/search/searchWorker.ts',
    packWorker: 'electron/history/remote/push/packWorker.ts',
    compactWorker: 'electron/history/compact/compactWorker.ts',
    readWorker: 'electron/history/store/readWorker.ts',
  };
  for (const file of suites) entryPoints[`suites/${file.replace(/\.ts$/, '')}`] = `test/bench/suites/${file}`;
  await build({
    absWorkingDir: root,
    entryPoints,
    outdir: 'out/bench',
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  // The private Swift's launcher, beside the bundle that starts it (privateSwift.ts finds it by its own URL).
  copyFileSync(`${root}scripts/swift/launchSwift.py`, `${root}out/bench/launchSwift.py`);
  // What was built, for the reports: the tree's commit, and whether the working tree differed.
  const git = (...args) => {
    try {
      return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  };
  const buildInfo = {
    commit: git('rev-parse', '--short=12', 'HEAD'),
    dirty: git('status', '--porcelain', '--untracked-files=no') !== '',
    builtAt: new Date().toISOString(),
  };
  writeFileSync(`${root}out/bench/build.json`, `${JSON.stringify(buildInfo)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildBench();
}
