import { describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { MaterializeResult, RestoreFileResult, RestoreSnapshotResult } from '../../shared/contract/values.js';
import type { VersionInfo } from '../../shared/history.js';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';

// Setuid, setgid and sticky bits through the built CLI. A history's own files keep their exact
// bits; the same files imported from a bundle are restored (one file, a snapshot in place, a
// snapshot --into) without them unless --keep-special-modes, and the restore says how many it
// dropped. (Run as root, as the tests here are, a setuid file one owns is written as asked.)

const mode = (path: string) => statSync(path).mode & 0o7777;

/** A project with a setuid program and a setgid folder, recorded in data folder A and exported. */
async function exported(): Promise<{ root: string; dataA: string; bundle: string }> {
  const root = tempDir();
  writeTree(root, { tool: { data: '#!/bin/sh\necho hi\n', mode: 0o4755 }, 'shared/notes.txt': 'notes', 'plain.txt': 'plain' });
  chmodSync(join(root, 'shared'), 0o2775);
  const dataA = tempDir('hindsight-data-');
  await cliJson(['open', root, '--data-dir', dataA]);
  const bundle = join(tempDir(), 'history.hsb');
  await cliJson(['export', root, '--to', bundle, '--data-dir', dataA]);
  return { root, dataA, bundle };
}

describe('special mode bits from another history', () => {
  it('are kept for this machine own files', async () => {
    const { root, dataA } = await exported();
    const into = join(tempDir(), 'own');
    const result = await runCli(['restore', root, '--snapshot', '1', '--into', into, '--json', '--data-dir', dataA]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout.toString())).toMatchObject({ specialModesDropped: 0 });
    expect(result.stderr).toBe('');
    expect(mode(join(into, 'tool'))).toBe(0o4755);
    expect(mode(join(into, 'shared'))).toBe(0o2775);
  });

  it('are dropped from an imported bundle unless --keep-special-modes: --into, a snapshot, one file', async () => {
    const { bundle } = await exported();
    const dataB = tempDir('hindsight-data-');
    const folder = tempDir();
    await cliJson(['import', bundle, '--as', folder, '--data-dir', dataB]);
    const cli = (...args: string[]) => runCli([...args, '--data-dir', dataB]);

    // --into: the file and the folder lose their bits, and the restore says so.
    const into = join(tempDir(), 'copy');
    const dropped = await cli('restore', folder, '--snapshot', '1', '--into', into);
    expect(dropped.code).toBe(0);
    expect(dropped.stderr).toBe(
      '2 files or folders had setuid/setgid/sticky bits from another history; not restored (use --keep-special-modes to keep them).\n',
    );
    expect(mode(join(into, 'tool'))).toBe(0o755);
    expect(mode(join(into, 'shared'))).toBe(0o775);
    const kept = join(tempDir(), 'kept');
    const keptRun = await cli('restore', folder, '--snapshot', '1', '--into', kept, '--keep-special-modes', '--json');
    expect(JSON.parse(keptRun.stdout.toString()) as MaterializeResult).toMatchObject({ specialModesDropped: 0 });
    expect(keptRun.stderr).toBe('');
    expect(mode(join(kept, 'tool'))).toBe(0o4755);
    expect(mode(join(kept, 'shared'))).toBe(0o2775);

    // The snapshot in place, into the (empty) folder the bundle was imported for: both come back.
    const inPlace = JSON.parse((await cli('restore', folder, '--snapshot', '1', '--json')).stdout.toString()) as RestoreSnapshotResult;
    expect(inPlace.specialModesDropped).toBe(2);
    expect(mode(join(folder, 'tool'))).toBe(0o755);
    expect(mode(join(folder, 'shared'))).toBe(0o775);

    // One file, by the version the bundle carried.
    rmSync(join(folder, 'tool'));
    const versions = await cliJson<VersionInfo[]>(['log', folder, 'tool', '--data-dir', dataB]);
    const carried = versions.find((v) => v.snapshotId === 1)!;
    const one = await cli('restore', folder, 'tool', '--version', String(carried.versionId), '--json');
    expect((JSON.parse(one.stdout.toString()) as RestoreFileResult).specialModesDropped).toBe(1);
    expect(one.stderr).toContain('1 file or folder had setuid/setgid/sticky bits');
    expect(mode(join(folder, 'tool'))).toBe(0o755);
    const oneKept = await cli('restore', folder, 'tool', '--version', String(carried.versionId), '--keep-special-modes', '--json');
    expect((JSON.parse(oneKept.stdout.toString()) as RestoreFileResult).specialModesDropped).toBe(0);
    expect(mode(join(folder, 'tool'))).toBe(0o4755);
  });

  it('are kept on what this machine records after an import', async () => {
    const { bundle } = await exported();
    const dataB = tempDir('hindsight-data-');
    const folder = tempDir();
    await cliJson(['import', bundle, '--as', folder, '--data-dir', dataB]);
    mkdirSync(join(folder, 'mine'));
    writeTree(folder, { 'mine/run': { data: 'run', mode: 0o4750 } });
    await cliJson(['open', folder, '--data-dir', dataB]);
    const log = await cliJson<{ snapshotId: number }[]>(['log', folder, '--data-dir', dataB]);
    const into = join(tempDir(), 'later');
    const result = await runCli(['restore', folder, '--snapshot', String(log.at(-1)!.snapshotId), '--into', into, '--data-dir', dataB]);
    expect(result.code).toBe(0);
    expect(mode(join(into, 'mine/run'))).toBe(0o4750);
  });
});
