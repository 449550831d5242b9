import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';

// What a CLI process compiles before its first byte of work is most of a small command's time.
// The S3 SDK is the largest part of the bundle and only `push`, `clone`, `pull` and reads of a
// clone's remote-only bytes need it: counted here as the bundle chunks a process opens (strace),
// so a static import that drags the SDK into every start fails this test. A search's start is
// counted whole: the bytes and modules of JS its main thread loads before the search's thread.

const hasStrace = spawnSync('strace', ['-V']).status === 0;
const chunksDir = join(dirname(CLI), 'chunks');

/** The openat calls of one CLI run (its threads and children too), as strace wrote them. */
function openCalls(args: string[], env: NodeJS.ProcessEnv = {}): string[] {
  const log = join(tempDir('hindsight-strace-'), 'calls');
  spawnSync('strace', ['-f', '-qq', '-s', '512', '-e', 'trace=openat', '-o', log, process.execPath, CLI, ...args], {
    stdio: 'ignore',
    env: { ...process.env, ...env },
  });
  return readFileSync(log, 'utf8').split('\n');
}

function openedPath(line: string): string | undefined {
  return /openat\([^"]*"([^"]+)"/.exec(line)?.[1];
}

/** The bundle chunks (out/cli/chunks/*.js) one CLI run opened. */
function chunksOpened(args: string[], env: NodeJS.ProcessEnv = {}): string[] {
  const opened = new Set<string>();
  for (const line of openCalls(args, env)) {
    const path = openedPath(line);
    if (path && dirname(path) === chunksDir && path.endsWith('.js') && !/= -1/.test(line)) opened.add(basename(path));
  }
  return [...opened];
}

/**
 * The chunks that hold the SDK's client: esbuild names each bundled module's path in a comment,
 * relative to the checkout (`// node_modules/...`, or `// ../x/node_modules/...` when the
 * packages lie elsewhere), so the test does not depend on where they were installed.
 */
const SDK_MODULE = /^\/\/ (?:\.\.\/)*(?:[^\n]*\/)?node_modules\/@aws-sdk\/client-s3\//m;

function sdkChunks(): Set<string> {
  return new Set(readdirSync(chunksDir).filter((name) => name.endsWith('.js') && SDK_MODULE.test(readFileSync(join(chunksDir, name), 'utf8'))));
}

describe('the modules a CLI process loads', () => {
  it.skipIf(!hasStrace)('open, a reopen and files never load the S3 SDK; a push does', () => {
    const sdk = sdkChunks();
    expect(sdk.size).toBeGreaterThan(0);
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a', 'src/b.txt': 'b' });
    const dataDir = tempDir('hindsight-data-');
    const firstCopy = chunksOpened(['open', root, '--data-dir', dataDir, '--json']);
    expect(firstCopy.length).toBeGreaterThan(0);
    for (const run of [firstCopy, chunksOpened(['open', root, '--data-dir', dataDir, '--json']), chunksOpened(['files', root, '--data-dir', dataDir])]) {
      expect(run.filter((chunk) => sdk.has(chunk))).toEqual([]);
    }

    // The control: a push (to a port nothing listens on) loads it, so the count above can see it.
    const added = spawnSync(process.execPath, [
      CLI,
      'remote',
      'add',
      'nowhere',
      's3://bucket/prefix',
      '--endpoint',
      'http://127.0.0.1:9',
      '--path-style',
      '--data-dir',
      dataDir,
    ]);
    expect(added.status).toBe(0);
    const push = chunksOpened(['push', root, '--data-dir', dataDir, '--json'], {
      HINDSIGHT_REMOTE_RETRIES: '0',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
    });
    expect(push.filter((chunk) => sdk.has(chunk)).length).toBeGreaterThan(0);
  });

  it.skipIf(!hasStrace)('a reopen finds the package scope of every chunk in its own folder: one package.json read per built folder', () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a' });
    const dataDir = tempDir('hindsight-data-');
    openCalls(['open', root, '--data-dir', dataDir, '--json']);
    const cliDir = dirname(CLI);
    // The package.json files looked for on the bundle's behalf: in out/cli/, below it, or above it.
    const forBundle = (path: string | undefined) =>
      path?.endsWith('/package.json') === true && (path.startsWith(`${cliDir}/`) || `${cliDir}/`.startsWith(`${dirname(path)}/`));
    const lookups = openCalls(['open', root, '--data-dir', dataDir, '--json']).filter((line) => forBundle(openedPath(line)));
    // Node 22 remembers a package.json it found, never one it missed: without the two written by
    // scripts/build-cli.mjs each import between chunks looked for three missing files (about 460).
    expect(lookups.filter((line) => /= -1/.test(line))).toEqual([]);
    expect(new Set(lookups.map((line) => openedPath(line)))).toEqual(new Set([join(cliDir, 'chunks', 'package.json'), join(cliDir, 'package.json')]));
    expect(lookups.length).toBeLessThanOrEqual(4);
  });
});

/** The built JS files (out/cli/ and its chunks) a run opened, in the order it first opened them. */
function jsOpened(args: string[]): string[] {
  const cliDir = dirname(CLI);
  const opened: string[] = [];
  for (const line of openCalls(args)) {
    const path = openedPath(line);
    if (path?.startsWith(`${cliDir}/`) && path.endsWith('.js') && !/= -1/.test(line) && !opened.includes(path)) opened.push(path);
  }
  return opened;
}

/** esbuild heads each bundled module with its path in a comment: one per module. */
const MODULE_HEAD = /^\/\/ \S+\.(?:ts|js|mjs|cjs)$/gm;
const ZOD_LOCALE = /^\/\/ \S*node_modules\/zod\/v4\/locales\/(\S+)\.js$/gm;

describe('what a search loads before its thread starts', () => {
  // The main thread of `search FOLDER QUERY --json` up to the search's worker: 1,546,162 bytes in
  // 481 modules when `import { z } from 'zod'` bundled every zod locale and all of zod (esbuild
  // keeps a whole namespace that is re-exported by name); 982,564 bytes in 404 modules with
  // `import * as z from 'zod'` (what is used, and the English messages zod sets at its load);
  // 899,654 bytes in 368 modules with a bundle's reader and writer and the remote's work loaded
  // on first use; the bundle's is loaded with the engine again (a lazy import after a test's
  // vi.resetModules made a second HindsightError class, and `instanceof` failed), and the merged
  // recorder, twin and memory work: 981,151 bytes in 400 modules. The bound keeps about 2%.
  const MAX_BYTES = 1_000_000;
  const MAX_MODULES = 410;

  it.skipIf(!hasStrace)('at most MAX_BYTES of JS in at most MAX_MODULES modules, and no zod locale but English', () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'needle here\n', 'b.txt': 'nothing\n' });
    const dataDir = tempDir('hindsight-data-');
    expect(spawnSync(process.execPath, [CLI, 'open', root, '--data-dir', dataDir, '--json']).status).toBe(0);
    const opened = jsOpened(['search', root, 'needle', '--limit', '1000', '--json', '--data-dir', dataDir]);
    const thread = opened.indexOf(join(dirname(CLI), 'searchWorker.js'));
    // The control: the search did start its thread, so what comes before it is the start.
    expect(thread).toBeGreaterThan(0);
    const start = opened.slice(0, thread);
    const texts = start.map((path) => readFileSync(path, 'utf8'));
    const bytes = start.reduce((sum, path) => sum + statSync(path).size, 0);
    const modules = texts.reduce((sum, text) => sum + (text.match(MODULE_HEAD)?.length ?? 0), 0);
    const locales = new Set(texts.flatMap((text) => [...text.matchAll(ZOD_LOCALE)].map((match) => match[1])));
    const loaded = `${bytes} bytes in ${modules} modules, ${start.length} files`;
    expect(bytes, loaded).toBeLessThanOrEqual(MAX_BYTES);
    expect(modules, loaded).toBeLessThanOrEqual(MAX_MODULES);
    expect([...locales]).toEqual(['en']);
  });
});

describe("the CLI's compile cache", () => {
  it('reaches the copy workers of a first copy, not only the main thread', async () => {
    const root = tempDir();
    writeTree(root, Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}.txt`, `file ${i}\n`])));
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_DEBUG_NATIVE: 'COMPILE_CACHE', TMPDIR: tempDir('hindsight-tmp-') };
    delete env.NODE_COMPILE_CACHE;
    delete env.NODE_DISABLE_COMPILE_CACHE;
    const run = spawnSync(process.execPath, [CLI, 'open', root, '--data-dir', tempDir('hindsight-data-'), '--json'], { env, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ files: 40, firstCopy: true });
    // Node's own trace of the cache (NODE_DEBUG_NATIVE) names each module it reads or writes for:
    // the main thread's always; a worker's only when the cache is on in that thread too.
    expect(run.stderr).toContain('out/cli/main.js');
    expect(run.stderr).toContain('out/cli/copyWorker.js');
  });
});
