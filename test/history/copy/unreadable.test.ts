import { chmodSync, chownSync, lchownSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OpenProjectResult } from '../../../shared/contract/values.js';
import { cliAsNobody, NOBODY } from '../../helpers/otherUser.js';
import { runCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { sha256, writeTree } from '../../helpers/writeTree.js';

// One file or folder that cannot be read never costs the rest: the first copy records everything
// readable and lists what it could not read, a later rescan still records every other change and
// neither deletes nor forgets what it cannot read now, and each is tried again at the next open.
//
// Root reads everything whatever the modes, so as root the CLI runs as another user (nobody) who
// owns the project and its data folder, and the unreadable paths are root's, 0600 / 0700. As any
// other user the CLI runs as that user and the unreadable paths are made 0000.

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface Runner {
  open: (root: string, dataDir: string) => Promise<Ran>;
  files: (root: string, dataDir: string) => Promise<{ path: string; hash: string }[]>;
  /** Hands the folder (and everything in it) to the user the CLI runs as. */
  own: (path: string) => void;
  /** Makes a file or folder unreadable to that user; `allow` undoes it. */
  deny: (path: string) => void;
  allow: (path: string) => void;
}

function runner(): Runner | { reason: string } {
  const asRoot = process.getuid?.() === 0;
  let run: (args: string[]) => Promise<Ran>;
  if (asRoot) {
    const nobody = cliAsNobody();
    if ('reason' in nobody) return nobody;
    run = async (args) => {
      const r = nobody.run(args);
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
  } else {
    run = async (args) => {
      const r = await runCli(args);
      return { code: r.code, stdout: r.stdout.toString(), stderr: r.stderr };
    };
  }
  const common = {
    open: (root: string, dataDir: string) => run(['open', root, '--data-dir', dataDir, '--json']),
    files: async (root: string, dataDir: string) =>
      JSON.parse((await run(['files', root, '--data-dir', dataDir, '--json'])).stdout) as { path: string; hash: string }[],
  };
  if (asRoot) {
    return {
      ...common,
      own: (path) => ownAll(path, NOBODY.uid, NOBODY.gid),
      deny: (path) => {
        chownSync(path, 0, 0);
        chmodSync(path, statSync(path).isDirectory() ? 0o700 : 0o600);
      },
      allow: (path) => chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o644),
    };
  }
  // Not root: the modes are enough.
  return {
    ...common,
    own: () => undefined,
    deny: (path) => chmodSync(path, 0),
    allow: (path) => chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o644),
  };
}

function ownAll(path: string, uid: number, gid: number): void {
  lchownSync(path, uid, gid);
  if (statSync(path).isDirectory()) for (const name of readdirSync(path)) ownAll(join(path, name), uid, gid);
}

function openJson(r: Ran): OpenProjectResult {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as OpenProjectResult;
}

describe('unreadable files and folders', () => {
  it('a first copy records everything readable, lists what it could not read, and takes it in once readable', async (ctx) => {
    const as = runner();
    if ('reason' in as) return ctx.skip(as.reason);
    const root = tempDir();
    const dataDir = tempDir('hindsight-data-');
    writeTree(root, { 'a.txt': 'a', 'secret.txt': 'secret', 'locked/inside.txt': 'inside', 'open/b.txt': 'b' });
    as.own(root);
    as.own(dataDir);
    as.deny(join(root, 'secret.txt'));
    as.deny(join(root, 'locked'));

    const first = await as.open(root, dataDir);
    const opened = openJson(first);
    expect(opened.firstCopy).toBe(true);
    expect(opened.files).toBe(2);
    expect(opened.unreadable).toEqual([
      { path: 'locked', reason: 'folder cannot be listed: permission denied (EACCES)' },
      { path: 'secret.txt', reason: 'permission denied (EACCES)' },
    ]);
    // The log says it in words; no raw system call text reaches the user.
    expect(first.stderr).toContain('could not read 2 paths');
    expect(first.stderr).toContain('  secret.txt: permission denied (EACCES)');
    expect(first.stderr).not.toMatch(/scandir|EACCES:/);
    expect((await as.files(root, dataDir)).map((f) => f.path)).toEqual(['a.txt', 'open/b.txt']);

    // Tried again at the next open: now readable, both are recorded.
    as.allow(join(root, 'secret.txt'));
    as.allow(join(root, 'locked'));
    const again = openJson(await as.open(root, dataDir));
    expect(again.unreadable).toEqual([]);
    expect((await as.files(root, dataDir)).map((f) => [f.path, f.hash])).toEqual([
      ['a.txt', sha256('a')],
      ['locked/inside.txt', sha256('inside')],
      ['open/b.txt', sha256('b')],
      ['secret.txt', sha256('secret')],
    ]);
  });

  it('a file or folder that becomes unreadable stops no other change from being recorded, and is neither deleted nor forgotten', async (ctx) => {
    const as = runner();
    if ('reason' in as) return ctx.skip(as.reason);
    const root = tempDir();
    const dataDir = tempDir('hindsight-data-');
    writeTree(root, { 'a.txt': 'a1', 'b.txt': 'b1', 'd/x.txt': 'x1', 'd/y.txt': 'y1' });
    as.own(root);
    as.own(dataDir);
    expect(openJson(await as.open(root, dataDir)).files).toBe(4);

    writeFileSync(join(root, 'a.txt'), 'a2');
    writeFileSync(join(root, 'b.txt'), 'b2');
    writeFileSync(join(root, 'c.txt'), 'c1');
    as.own(root);
    as.deny(join(root, 'b.txt'));
    as.deny(join(root, 'd'));

    const rescan = openJson(await as.open(root, dataDir));
    expect(rescan.firstCopy).toBe(false);
    expect(rescan.unreadable.map((u) => u.path)).toEqual(['b.txt', 'd']);
    // a.txt's change and the new c.txt are recorded; b.txt and d/ keep what was recorded.
    expect((await as.files(root, dataDir)).map((f) => [f.path, f.hash])).toEqual([
      ['a.txt', sha256('a2')],
      ['b.txt', sha256('b1')],
      ['c.txt', sha256('c1')],
      ['d/x.txt', sha256('x1')],
      ['d/y.txt', sha256('y1')],
    ]);

    as.allow(join(root, 'b.txt'));
    as.allow(join(root, 'd'));
    expect(openJson(await as.open(root, dataDir)).unreadable).toEqual([]);
    expect((await as.files(root, dataDir)).find((f) => f.path === 'b.txt')?.hash).toBe(sha256('b2'));
  });
});
