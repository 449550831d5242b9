import { expect, it, onTestFinished } from 'vitest';
import { createDispatcher } from '../../electron/history/dispatcher/dispatcher.js';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import { addRemote, remoteFromInput } from '../../electron/history/remote/remoteConfig.js';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';
import { describeWithSwift, newBucket } from './swiftTestKit.js';
import { smallTree } from './remoteCli.js';

// The credentials main hands the history process from the OS keychain (the contract's
// useRemoteCredentials, checked by zod like every call): a push of that remote uses them, and
// drops back to the AWS chain (here: none) once they are forgotten. The test process itself has
// no AWS credentials in its environment.

describeWithSwift('credentials handed over by the app', (swift) => {
  it('are taken by the contract call, used by a push of that remote only, and dropped by null', async () => {
    for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_PROFILE']) expect(process.env[name], name).toBeUndefined();
    const root = tempDir();
    writeTree(root, smallTree(5, 61));
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    onTestFinished(() => engine.close());
    const dispatcher = createDispatcher(engine, { watch: false });
    onTestFinished(() => dispatcher.close());
    const call = async (name: string, args: unknown) => (await dispatcher.handle({ kind: 'call', id: 1, call: name, args })).result;
    const { projectId } = await engine.open(root);
    const bucket = await newBucket(swift);
    await engine.config.editConfig(
      addRemote(remoteFromInput({ name: 'origin', url: `s3://${bucket}/p`, endpoint: swift.endpoint, region: swift.region, pathStyle: true })),
    );

    await expect(engine.push(projectId, 'origin')).rejects.toMatchObject({ code: 'REMOTE_CREDENTIALS_MISSING' });
    // A bad request is refused by the contract, and nothing is kept.
    const refused = await call('useRemoteCredentials', { remote: 'origin', credentials: { accessKeyId: 'has space', secretAccessKey: swift.secretAccessKey } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(
      await call('useRemoteCredentials', { remote: 'other', credentials: { accessKeyId: swift.accessKeyId, secretAccessKey: swift.secretAccessKey } }),
    ).toEqual({ ok: true, value: null });
    await expect(engine.push(projectId, 'origin')).rejects.toMatchObject({ code: 'REMOTE_CREDENTIALS_MISSING' });

    expect(
      await call('useRemoteCredentials', { remote: 'origin', credentials: { accessKeyId: swift.accessKeyId, secretAccessKey: swift.secretAccessKey } }),
    ).toEqual({ ok: true, value: null });
    expect(await engine.push(projectId, 'origin')).toMatchObject({ upToDate: false, snapshots: 1 });

    expect(await call('useRemoteCredentials', { remote: 'origin', credentials: null })).toEqual({ ok: true, value: null });
    await expect(engine.push(projectId, 'origin')).rejects.toMatchObject({ code: 'REMOTE_CREDENTIALS_MISSING' });
    expect(await call('dataFolder', {})).toEqual({ ok: true, value: { path: engine.dataDir } });
  });
});
