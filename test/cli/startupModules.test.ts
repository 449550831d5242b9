import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';

// What a CLI process compiles before its first byte of work is most of a small command's time.
// The S3 SDK is the largest part of the bundle and only `push`, `clone`, `pull` and reads of a
// clone's remote-only bytes need it: counted here as the bundle chunks a process opens (strace),
// so a static import that drags the SDK into every start fails this test.

const hasStrace = spawnSync('strace', ['-V']).status === 0;
const chunksDir = join(dirname(CLI), 'chunks');

/** The bundle chunks (out/cli/chunks/*.js) one CLI run opened. */
function chunksOpened(args: string[], env: NodeJS.ProcessEnv = {}): string[] {
  const log = join(tempDir('hindsight-strace-'), 'calls');
  spawnSync('strace', ['-f', '-qq', '-s', '512', '-e', 'trace=openat', '-o', log, process.execPath, CLI, ...args], {
    stdio: 'ignore',
    env: { ...process.env, ...env },
  });
  const opened = new Set<string>();
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    const path = /openat\([^"]*"([^"]+)"/.exec(line)?.[1];
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
});
