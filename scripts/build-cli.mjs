// Builds the `hindsight` command and the workers it starts (copy, prune planner, search index build, search, push packing, compaction, read-ahead) into out/cli/.
// Pure-JS npm packages are bundled in; better-sqlite3 (native) stays external.
import { build } from 'esbuild';
import { chmod, readdir, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// outdir: the bench rig builds its own copy (out/bench/cli) so tests rebuilding out/cli never
// swap files under a running benchmark.
export async function buildCli(outdir = 'out/cli') {
  const result = await build({
    metafile: true,
    absWorkingDir: root,
    entryPoints: {
      hindsight: 'electron/cli/hindsight.ts',
      main: 'electron/cli/main.ts',
      copyWorker: 'electron/history/store/copyWorker.ts',
      pruneWorker: 'electron/history/retention/pruneWorker.ts',
      indexWorker: 'electron/history/search/indexWorker.ts',
      commitWorker: 'electron/history/db/commitWorker.ts',
      searchWorker: 'electron/history/search/searchWorker.ts',
      packWorker: 'electron/history/remote/push/packWorker.ts',
      compactWorker: 'electron/history/compact/compactWorker.ts',
      readWorker: 'electron/history/store/readWorker.ts',
    },
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    // Each command is its own chunk, loaded when it runs (electron/cli/commandRegistry.ts).
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    // Pure-JS packages are bundled: resolving and compiling dozens of package files at every
    // start cost the CLI more than the copy of a small project. better-sqlite3 is native.
    external: ['better-sqlite3'],
    sourcemap: true,
    logLevel: 'warning',
    // Bundled CommonJS packages require Node built-ins: give the ESM bundle a real require.
    banner: { js: "#!/usr/bin/env node\nimport { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" },
  });
  await chmod(`${root}${outdir}/hindsight.js`, 0o755);
  await markModuleScope(`${root}${outdir}`);
  await removeStaleChunks(`${root}${outdir}`, outdir, Object.keys(result.metafile.outputs));
}

// Chunk names carry their content's hash, so every build that changes a module adds chunks
// beside the old ones; those no entry imports any more are removed once the new ones are written.
async function removeStaleChunks(dir, outdir, outputs) {
  const built = new Set(outputs.map((path) => path.slice(outdir.length + 1)));
  const names = await readdir(`${dir}/chunks`);
  const stale = names.filter((name) => name !== 'package.json' && !built.has(`chunks/${name}`));
  await Promise.all(stale.map((name) => rm(`${dir}/chunks/${name}`, { force: true })));
}

// Node 22 looks up the package.json of every ES module it resolves, folder by folder up to the
// first one found, and remembers only the ones it finds: with none in out/, each import between
// chunks opened three missing files (about 460 per reopen). One in each built folder ends the
// search where it starts (test/cli/startupModules.test.ts counts them).
async function markModuleScope(dir) {
  const scope = `${JSON.stringify({ type: 'module' })}\n`;
  await Promise.all([writeFile(`${dir}/package.json`, scope), writeFile(`${dir}/chunks/package.json`, scope)]);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildCli();
}
