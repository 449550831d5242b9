import { describe, expect, it } from 'vitest';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenResult } from '../../../shared/history.js';
import { cliJson, runCli, startCli } from '../../helpers/runCli.js';
import { killAtPoint } from '../../helpers/killAtPoint.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree, type TreeSpec } from '../../helpers/writeTree.js';
import { diskState, SHAPES, TYPE_CHANGES, type TypeChange } from './typeChangeCases.js';

// A real `hindsight restore --snapshot` child process across every change of type at once (each
// in a folder of its own), SIGKILLed at each of the restore's fault points: after its first step,
// once everything in the way is cleared, once every version is written, and once the restore is
// recorded. The next open completes it (recorded) or rolls it back (not), before its catch-up: the
// folder equals exactly (types, modes, bytes, links) what it held before the restore or the
// snapshot, the open says which, and verify passes. A path edited after the kill is left alone and
// named by the open.

const POINTS = ['restore-step-taken', 'restore-cleared', 'restore-written', 'restore-committed'] as const;

function shapesIn(changes: readonly TypeChange[], side: 'snapshot' | 'now'): TreeSpec {
  const spec: TreeSpec = { 'other.txt': 'the links point here\n' };
  changes.forEach((change, i) => {
    for (const [path, entry] of Object.entries(SHAPES[change[side]])) spec[`t${i}/${path}`] = entry;
  });
  return spec;
}

async function killedRestore(changes: readonly TypeChange[], deleteAdded: boolean, point: (typeof POINTS)[number]) {
  const root = tempDir();
  const data = tempDir('hindsight-data-');
  const cli = (...args: string[]) => [...args, '--data-dir', data];
  writeTree(root, shapesIn(changes, 'snapshot'));
  await cliJson(cli('open', root));
  const snapshot = diskState(root);
  changes.forEach((_, i) => rmSync(join(root, `t${i}/node`), { recursive: true, force: true }));
  writeTree(root, shapesIn(changes, 'now'));
  const before = diskState(root);
  const args = cli('restore', root, '--snapshot', '1', ...(deleteAdded ? ['--delete-added'] : []));
  expect((await killAtPoint(startCli(args, { HINDSIGHT_STOP_AT: point }), point)).signal).toBe('SIGKILL');
  return { root, data, cli, snapshot, before };
}

describe('a snapshot restore across changes of type, killed at each step', () => {
  for (const deleteAdded of [true, false]) {
    // Without --delete-added only the changes with nothing in the way run (the others are refused up front).
    const changes = TYPE_CHANGES.filter((c) => deleteAdded || !c.needsDeleteAdded);
    for (const point of POINTS) {
      it(`${deleteAdded ? 'with' : 'without'} --delete-added, killed at ${point}: the next open ${point === 'restore-committed' ? 'completes it' : 'rolls it back'}`, async () => {
        const { root, cli, snapshot, before } = await killedRestore(changes, deleteAdded, point);
        const opened = await cliJson<OpenResult>(cli('open', root));
        const completed = point === 'restore-committed';
        expect(opened.recoveredRestores).toHaveLength(1);
        expect(opened.recoveredRestores[0]).toMatchObject({ outcome: completed ? 'completed' : 'rolled-back', leftAlone: [] });
        expect(diskState(root)).toEqual(completed ? snapshot : before);
        expect(await cliJson(cli('verify', root))).toMatchObject({ ok: true });
        // The history ends as the disk: what it lists now is exactly the files there.
        const files = await cliJson<{ path: string; type: string }[]>(cli('files', root));
        const onDisk = Object.entries(diskState(root)).filter(([, s]) => s.type !== 'folder');
        expect(files.map((f) => f.path).sort()).toEqual(onDisk.map(([p]) => p).sort());
      }, 60_000);
    }
  }

  it('leaves a path edited after the kill alone, names it, and puts every other one back', async () => {
    const { root, cli, before } = await killedRestore(TYPE_CHANGES, true, 'restore-written');
    // t2 is a link now and the restore wrote the snapshot's file there: edited after the kill.
    expect(TYPE_CHANGES[2]).toMatchObject({ now: 'symlink', snapshot: 'file' });
    writeFileSync(join(root, 't2/node'), 'edited after the kill\n');
    const edited = diskState(root)['t2/node'];
    // The open says it, in words (--json: recoveredRestores, as above).
    const opened = await runCli(cli('open', root));
    expect(opened.code).toBe(0);
    const told = opened.stdout.toString().split('\n').slice(1, 3);
    expect(told[0]).toMatch(/^A restore killed midway was rolled back: \d+ paths put back as they were before it\.$/);
    expect(told[1]).toBe('  left as it is (changed since the restore): t2/node');
    expect(diskState(root)).toEqual({ ...before, 't2/node': edited });
    expect(await cliJson(cli('verify', root))).toMatchObject({ ok: true });
  }, 60_000);
});

// One file's restore takes the same journaled steps: folders made for it and the version written,
// or the file deleted and the folder that leaves empty. Killed at each point, the next open
// completes it or puts it back, folders with their own modes.

interface FileCase {
  name: string;
  path: string;
  /** The disk the restore starts from, after the history has the version restored. */
  setup: (root: string, open: () => Promise<unknown>) => Promise<void>;
  version: string;
  /** The disk once the restore is done, from the disk at the first open and just before the restore. */
  restored: (first: DiskState, before: DiskState) => DiskState;
}

type DiskState = ReturnType<typeof diskState>;

const FILE_CASES: FileCase[] = [
  {
    name: 'a file whose folders are gone (folders made, the version written)',
    path: 'docs/deep/a.txt',
    version: 'v1',
    restored: (first) => first,
    setup: async (root, open) => {
      writeTree(root, { 'docs/deep/a.txt': 'first\n' });
      chmodSync(join(root, 'docs/deep'), 0o700);
      chmodSync(join(root, 'docs'), 0o750);
      await open();
      rmSync(join(root, 'docs'), { recursive: true });
    },
  },
  {
    name: 'a file restored to its deletion (the file deleted, its emptied folder removed)',
    path: 'gone/x.txt',
    version: 'v2',
    restored: (_first, before) => Object.fromEntries(Object.entries(before).filter(([path]) => !path.startsWith('gone'))),
    setup: async (root, open) => {
      writeTree(root, { 'gone/x.txt': 'x\n' });
      await open();
      rmSync(join(root, 'gone'), { recursive: true });
      await open();
      writeTree(root, { 'gone/x.txt': 'x again\n' });
      chmodSync(join(root, 'gone'), 0o750);
    },
  },
];

async function killedFileRestore(fileCase: FileCase, point: (typeof POINTS)[number]) {
  const root = tempDir();
  const data = tempDir('hindsight-data-');
  const cli = (...args: string[]) => [...args, '--data-dir', data];
  writeTree(root, { 'other.txt': 'other\n' });
  let first: DiskState | undefined;
  await fileCase.setup(root, async () => {
    await cliJson(cli('open', root));
    first ??= diskState(root);
  });
  await cliJson(cli('open', root));
  const before = diskState(root);
  const child = startCli(cli('restore', root, fileCase.path, '--version', fileCase.version), { HINDSIGHT_STOP_AT: point });
  expect((await killAtPoint(child, point)).signal).toBe('SIGKILL');
  return { root, cli, before, want: fileCase.restored(first!, before) };
}

describe("one file's restore, killed at each step", () => {
  for (const fileCase of FILE_CASES) {
    for (const point of POINTS) {
      it(`${fileCase.name}, killed at ${point}: the next open ${point === 'restore-committed' ? 'completes it' : 'rolls it back'}`, async () => {
        const { root, cli, before, want } = await killedFileRestore(fileCase, point);
        const opened = await cliJson<OpenResult>(cli('open', root));
        const completed = point === 'restore-committed';
        expect(opened.recoveredRestores).toEqual([expect.objectContaining({ outcome: completed ? 'completed' : 'rolled-back', leftAlone: [] })]);
        const after = diskState(root);
        expect(after).toEqual(completed ? want : before);
        expect(await cliJson(cli('verify', root))).toMatchObject({ ok: true });
        const files = await cliJson<{ path: string }[]>(cli('files', root));
        const onDisk = Object.entries(after).filter(([, s]) => s.type !== 'folder');
        expect(files.map((f) => f.path).sort()).toEqual(onDisk.map(([p]) => p).sort());
      }, 60_000);
    }
  }

  it('leaves a file written after the kill alone and names it', async () => {
    const { root, cli } = await killedFileRestore(FILE_CASES[1]!, 'restore-cleared');
    writeTree(root, { 'gone/x.txt': 'written after the kill\n' });
    const opened = await cliJson<OpenResult>(cli('open', root));
    expect(opened.recoveredRestores).toEqual([
      { outcome: 'rolled-back', putBack: [], leftAlone: [{ path: 'gone/x.txt', reason: 'changed since the restore' }] },
    ]);
    expect(readFileSync(join(root, 'gone/x.txt'), 'utf8')).toBe('written after the kill\n');
  }, 60_000);
});
