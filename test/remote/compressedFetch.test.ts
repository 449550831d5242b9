import { expect, it } from 'vitest';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { sha256 } from '../helpers/writeTree.js';
import { blobPath, compressedBlobPath } from '../../electron/history/store/storeLayout.js';
import type { PushResult } from '../../electron/history/remote/push/pushProject.js';
import { describeWithSwift, swiftEnv } from './swiftTestKit.js';
import { pushSetup } from './remoteCli.js';

// The remote keeps its own packs; a push reads raw bytes through the store's reader, whatever
// form they are kept in here, and a clone keeps what it fetches in its own store's form for it:
// compressed where that saves a tenth, both at the clone and when an older version is first read.

const text = (n: number) => Array.from({ length: 300 }, (_, i) => `version ${n}, line ${i}: the same words again\n`).join('');

describeWithSwift('compressed blobs and a remote', (swift) => {
  it('are pushed as their raw bytes and kept compressed by a clone, also when fetched on first need', async () => {
    const { root, env, bucket, dataDir } = await pushSetup(swift, { 'notes.txt': text(1) });
    const [sourceStore] = readdirSync(join(dataDir, 'projects'));
    expect(existsSync(compressedBlobPath(join(dataDir, 'projects', sourceStore!, 'blobs'), sha256(text(1))))).toBe(true);
    writeFileSync(join(root, 'notes.txt'), text(2));
    await cliJson(['checkpoint', root, 'edit'], env);
    const pushed = await cliJson<PushResult>(['push', root], env);

    const other = tempDir('hindsight-data-');
    const env2 = { ...swiftEnv(swift), HINDSIGHT_DATA_DIR: other };
    await cliJson(['remote', 'add', 'origin', `s3://${bucket}/team/hs`, '--endpoint', swift.endpoint, '--region', swift.region, '--path-style'], env2);
    const into = join(tempDir(), 'clone');
    await cliJson(['clone', '--remote', 'origin', '--project', pushed.projectId, '--into', into], env2);
    const [cloneStore] = readdirSync(join(other, 'projects'));
    const blobsDir = join(other, 'projects', cloneStore!, 'blobs');
    expect(existsSync(compressedBlobPath(blobsDir, sha256(text(2))))).toBe(true);

    const versions = await cliJson<{ versionId: number; hash: string }[]>(['log', into, 'notes.txt'], env2);
    const shown = await runCli(['show', into, 'notes.txt', '--version', String(versions[0]!.versionId)], env2);
    expect(shown.stdout.toString('utf8')).toBe(text(1));
    expect(existsSync(compressedBlobPath(blobsDir, sha256(text(1))))).toBe(true);
    expect(existsSync(blobPath(blobsDir, sha256(text(1))))).toBe(false);
    expect((await runCli(['verify', into], env2)).code).toBe(0);
  });
});
