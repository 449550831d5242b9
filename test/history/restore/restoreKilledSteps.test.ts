import { describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenResult } from '../../../shared/history.js';
import { cliJson, finished, runCli, startCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree, type TreeSpec } from '../../helpers/writeTree.js';
import { diskState, SHAPES, TYPE_CHANGES, type TypeChange } from './typeChangeCases.js';
import { until } from '../../helpers/until.js';

// A real `hindsight restore --snapshot` child process across every change of type at once (each
// in a folder of its own), SIGKILLed at each of the restore's fault points: after its first step,
// once everything in the way is cleared, once every version is written, and once the restore is
// recorded. The next open completes it (recorded) or rolls it back (not), before its catch-up: the
// folder equals exactly (types, modes, bytes, links) what it held before the restore or the
// snapshot, the open says which, and verify passes. A path edited after the kill is left alone and
// named by the open.

const POINTS = ['restore-step-taken', 'restore-cleared', 'restore-written', 'restore-committed'] as const;

function stoppedAt(child: ChildProcess, point: string): Promise<void> {
  return new Promise((resolve) => child.stderr!.on('data', (chunk: Buffer) => chunk.toString().includes(`stopped at ${point}`) && resolve()));
}

/** Resolves once the child is really stopped (its SIGSTOP taken): a signal sent before would be lost to the stop. */
async function isStopped(child: ChildProcess): Promise<void> {
  await until(() => /^\d+ \(.*\) T/.test(readFileSync(`/proc/${child.pid}/stat`, 'utf8')), { everyMs: 5 });
}

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
  const child = startCli(args, { HINDSIGHT_STOP_AT: point });
  const done = finished(child);
  await stoppedAt(child, point);
  await isStopped(child);
  child.kill('SIGKILL');
  expect((await done).signal).toBe('SIGKILL');
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
