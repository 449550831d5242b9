import { expect, it } from 'vitest';
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import type { PushResult } from '../../electron/history/remote/push/pushProject.js';
import type { CloneResult } from '../../electron/history/remote/fetch/cloneProject.js';
import type { MaterializeResult } from '../../shared/contract/values.js';
import { describeWithSwift, swiftEnv } from './swiftTestKit.js';
import { pushSetup } from './remoteCli.js';

// Setuid bits that come from a remote (a clone's files, a pulled snapshot written --into) are not
// written unless --keep-special-modes, against the run's real Swift; the pushing machine's own
// restores keep them. (Run as root, as the tests here are.)

const mode = (path: string) => statSync(path).mode & 0o7777;

describeWithSwift('special mode bits from a remote', (swift) => {
  it('are dropped by a clone and by a restore of a pulled snapshot unless --keep-special-modes', async () => {
    const { root, env, bucket } = await pushSetup(swift, { tool: { data: '#!/bin/sh\n', mode: 0o4755 }, 'plain.txt': 'plain' });
    const pushed = await cliJson<PushResult>(['push', root], env);
    const machineTwo = (dataDir: string) => ({ ...swiftEnv(swift), HINDSIGHT_DATA_DIR: dataDir });
    const addOrigin = (e: NodeJS.ProcessEnv) =>
      cliJson(['remote', 'add', 'origin', `s3://${bucket}/team/hs`, '--endpoint', swift.endpoint, '--region', swift.region, '--path-style'], e);

    const env2 = machineTwo(tempDir('hindsight-data-'));
    await addOrigin(env2);
    const into = join(tempDir(), 'clone');
    const cloned = await runCli(['clone', '--remote', 'origin', '--project', pushed.projectId, '--into', into, '--json'], env2);
    expect(cloned.code).toBe(0);
    expect((JSON.parse(cloned.stdout.toString()) as CloneResult).specialModesDropped).toBe(1);
    expect(cloned.stderr).toContain(
      '1 file or folder had setuid/setgid/sticky bits from another history; not restored (use --keep-special-modes to keep them).',
    );
    expect(mode(join(into, 'tool'))).toBe(0o755);

    const env3 = machineTwo(tempDir('hindsight-data-'));
    await addOrigin(env3);
    const kept = join(tempDir(), 'kept');
    const keptClone = await cliJson<CloneResult>(['clone', '--remote', 'origin', '--project', pushed.projectId, '--into', kept, '--keep-special-modes'], env3);
    expect(keptClone.specialModesDropped).toBe(0);
    expect(mode(join(kept, 'tool'))).toBe(0o4755);

    // Machine one records a new setuid program and pushes; machine two pulls it and writes that snapshot --into.
    writeFileSync(join(root, 'other'), 'other');
    chmodSync(join(root, 'other'), 0o4711);
    await cliJson(['checkpoint', root, 'second'], env);
    await cliJson(['push', root], env);
    await cliJson(['pull', into], env2);
    const log = await cliJson<{ snapshotId: number; label: string | null }[]>(['log', into], env2);
    const pulled = log.find((s) => s.label === 'second')!;
    const out = join(tempDir(), 'pulled');
    const written = await cliJson<MaterializeResult>(['restore', into, '--snapshot', String(pulled.snapshotId), '--into', out], env2);
    expect(written.specialModesDropped).toBe(2);
    expect(mode(join(out, 'other'))).toBe(0o711);
    expect(mode(join(out, 'tool'))).toBe(0o755);

    // The pushing machine's own restore keeps them.
    const own = join(tempDir(), 'own');
    const ownLog = await cliJson<{ snapshotId: number }[]>(['log', root], env);
    expect((await cliJson<MaterializeResult>(['restore', root, '--snapshot', String(ownLog.at(-1)!.snapshotId), '--into', own], env)).specialModesDropped).toBe(
      0,
    );
    expect(mode(join(own, 'other'))).toBe(0o4711);
  });
});
