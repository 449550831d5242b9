import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, statSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { projectIdOf } from '../../../electron/history/project/projectId.js';
import { CLI } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree, type TreeSpec } from '../../helpers/writeTree.js';

// The small-file path of the first copy, counted in real system calls (strace) rather than timed:
// one read per source file, and each blob's temp written beside it so the rename stays inside one
// folder (no cross-folder rename, which takes the file system's rename lock and two folder locks).

const hasStrace = spawnSync('strace', ['-V']).status === 0;
const FILES = 120;

function smallTree(): string {
  const root = tempDir();
  const spec: TreeSpec = {};
  for (let i = 0; i < FILES; i++) spec[`d${i % 7}/f${i}.txt`] = `file ${i}\n`.repeat(1 + (i % 50));
  writeTree(root, spec);
  return realpathSync(root);
}

interface Call {
  name: string;
  args: string;
  result: string;
}

/** Parses the calls of one thread's strace file (-ff: one file per thread, so no interleaving). */
function parseStrace(text: string): Call[] {
  const calls: Call[] = [];
  for (const line of text.split('\n')) {
    const call = /^(\w+)\((.*)\)\s+=\s+(-?\d+.*)$/.exec(line);
    if (call) calls.push({ name: call[1]!, args: call[2]!, result: call[3]! });
  }
  return calls;
}

describe('the small-file path of a first copy, in system calls', () => {
  it.skipIf(!hasStrace)('reads each small file once and renames every blob within its own folder', () => {
    const root = smallTree();
    const dataDir = tempDir('hindsight-data-');
    const logs = tempDir('hindsight-strace-');
    execFileSync(
      'strace',
      [
        '-f',
        '-ff',
        '-qq',
        '-s',
        '256',
        '-e',
        'trace=openat,read,close,rename,renameat,renameat2',
        '-o',
        join(logs, 'thread'),
        process.execPath,
        CLI,
        'open',
        root,
        '--data-dir',
        dataDir,
        '--json',
      ],
      { stdio: 'ignore' },
    );
    const threads = readdirSync(logs).map((name) => parseStrace(readFileSync(join(logs, name), 'utf8')));

    // fd -> source file, so reads can be charged to the file they read (a worker opens, reads and
    // closes a file on its own thread).
    const reads = new Map<string, number>();
    for (const calls of threads) {
      const open = new Map<string, string>();
      for (const call of calls) {
        if (call.name === 'openat') {
          const path = /"([^"]*)"/.exec(call.args)?.[1];
          const fd = /^\d+/.exec(call.result)?.[0];
          if (path && fd && path.startsWith(`${root}/`) && !call.args.includes('O_DIRECTORY')) open.set(fd, path);
        } else if (call.name === 'close') {
          open.delete(call.args.trim());
        } else if (call.name === 'read') {
          const path = open.get(call.args.split(',')[0]!.trim());
          if (path) reads.set(path, (reads.get(path) ?? 0) + 1);
        }
      }
    }
    expect(reads.size).toBe(FILES);
    expect(Math.max(...reads.values())).toBe(1);

    const renames = threads.flat().filter((c) => c.name.startsWith('rename') && c.args.includes('/blobs/'));
    for (const rename of renames) {
      const [from, to] = [...rename.args.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
      expect(dirname(from!), rename.args).toBe(dirname(to!));
    }
    expect(renames.length).toBe(FILES);
  });

  // A blob's temp is created 0600; the umask can only clear bits, so under a usual umask (022,
  // 077) it already is 0600 and the copy workers set no mode. Under an odd umask that clears an
  // owner bit (0277) they set it, and every blob is 0600 either way.
  for (const [umask, fchmods] of [
    ['022', 'none'],
    ['277', 'one per blob'],
  ] as const) {
    it.skipIf(!hasStrace)(`under umask ${umask} sets the mode of ${fchmods} and every blob is 0600`, () => {
      const root = smallTree();
      const dataDir = tempDir('hindsight-data-');
      const logs = tempDir('hindsight-strace-');
      const script = `umask ${umask} && exec strace -f -ff -qq -y -e trace=fchmod -o ${join(logs, 'thread')} "$@"`;
      execFileSync('sh', ['-c', script, 'sh', process.execPath, CLI, 'open', root, '--data-dir', dataDir, '--json'], { stdio: 'ignore' });
      const calls = readdirSync(logs)
        .flatMap((name) => parseStrace(readFileSync(join(logs, name), 'utf8')))
        .filter((c) => c.name === 'fchmod' && c.args.includes('/blobs/'));
      const blobsDir = join(dataDir, 'projects', projectIdOf(root), 'blobs');
      const blobs = readdirSync(blobsDir, { recursive: true })
        .map(String)
        .filter((p) => /^[0-9a-f]{2}\/[0-9a-f]{64}$/.test(p));
      expect(blobs.length).toBe(FILES);
      for (const blob of blobs) expect(statSync(join(blobsDir, blob)).mode & 0o777, blob).toBe(0o600);
      expect(calls.length).toBe(umask === '022' ? 0 : FILES);
    });
  }

  // Whether a blob is stored is answered from the hashes the index names (loaded in one query),
  // not by a look at each blob path: a first copy makes no access or stat on any blob. Two files
  // with the same bytes make one blob (the second finds the first in the set, on its worker).
  it.skipIf(!hasStrace)('looks at no blob path to learn whether it is stored', () => {
    const root = smallTree();
    writeTree(root, { 'twin/a.txt': 'the same bytes\n', 'twin/b.txt': 'the same bytes\n' });
    const dataDir = tempDir('hindsight-data-');
    const logs = tempDir('hindsight-strace-');
    execFileSync(
      'strace',
      [
        '-f',
        '-ff',
        '-qq',
        '-s',
        '256',
        '-e',
        'trace=access,faccessat,faccessat2,stat,lstat,newfstatat,statx',
        '-o',
        join(logs, 'thread'),
        process.execPath,
        CLI,
        'open',
        root,
        '--data-dir',
        dataDir,
        '--json',
      ],
      { stdio: 'ignore', env: { ...process.env, HINDSIGHT_COPY_CONCURRENCY: '1' } },
    );
    const looks = readdirSync(logs)
      .flatMap((name) => parseStrace(readFileSync(join(logs, name), 'utf8')))
      .filter((c) => /\/blobs\/[0-9a-f]{2}\/[0-9a-f]{64}"/.test(c.args));
    expect(looks.map((c) => `${c.name}(${c.args})`)).toEqual([]);
    const blobsDir = join(dataDir, 'projects', projectIdOf(root), 'blobs');
    const blobs = readdirSync(blobsDir, { recursive: true })
      .map(String)
      .filter((p) => /^[0-9a-f]{2}\/[0-9a-f]{64}$/.test(p));
    expect(blobs.length).toBe(FILES + 1);
  });

  it('sweeps temps a dead process left beside blobs, in every blob folder', async () => {
    const root = smallTree();
    const dataDir = tempDir('hindsight-data-');
    const blobsDir = join(dataDir, 'projects', projectIdOf(root), 'blobs');
    for (const folder of ['00', 'ab', 'ff']) {
      mkdirSync(join(blobsDir, folder), { recursive: true });
      writeFileSync(join(blobsDir, folder, 'incoming-left-by-a-crash'), 'half a file');
    }
    writeFileSync(join(blobsDir, 'incoming-large-left-by-a-crash'), 'half a large file');
    const engine = new HistoryEngine(dataDir);
    try {
      expect((await engine.open(root)).files).toBe(FILES);
    } finally {
      engine.close();
    }
    const left = readdirSync(blobsDir, { recursive: true })
      .map(String)
      .filter((p) => p.includes('incoming-'));
    expect(left).toEqual([]);
    expect(existsSync(join(blobsDir, 'ab'))).toBe(true);
  });
});
