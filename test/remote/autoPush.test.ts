import { expect, it, onTestFinished } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import { addRemote, remoteFromInput } from '../../electron/history/remote/remoteConfig.js';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';
import { requestsSoFar } from '../../scripts/swift/proxyAccessLog.js';
import { describeWithSwift, newBucket } from './swiftTestKit.js';
import { kindOf, smallTree } from './remoteCli.js';

// The app's background push, on the real engine and the run's Swift: change groups recorded in a
// burst make one push, and the remote's state (the Store tab's) follows what was sent.

describeWithSwift('background push', (swift) => {
  it('pushes a burst of recorded snapshots once, and the status says up to date, then behind', async () => {
    const root = tempDir();
    writeTree(root, smallTree(10, 51));
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    onTestFinished(() => engine.close());
    const { projectId } = await engine.open(root);
    const bucket = await newBucket(swift);
    await engine.config.editConfig(
      addRemote(remoteFromInput({ name: 'origin', url: `s3://${bucket}/p`, endpoint: swift.endpoint, region: swift.region, pathStyle: true })),
    );
    expect(engine.remoteStatus(projectId)).toMatchObject([{ name: 'origin', state: 'never-pushed', behind: 1, pushed: 0 }]);

    const autoPush = engine.startAutoPush({ delayMs: 600_000, credentials: { accessKeyId: swift.accessKeyId, secretAccessKey: swift.secretAccessKey } });
    onTestFinished(() => autoPush.stop());
    for (let i = 0; i < 3; i++) {
      writeFileSync(join(root, `burst-${i}.txt`), `change ${i}\n`);
      await engine.checkpoint(projectId, `burst ${i}`);
    }
    // Nothing is sent while the project is busy; the quiet time passing (flush) sends it all at once.
    expect((await requestsSoFar(swift, bucket)).filter((r) => r.method === 'PUT' && r.path !== `/${bucket}/`)).toEqual([]);
    autoPush.flush();
    await autoPush.idle();
    const heads = (await requestsSoFar(swift, bucket)).filter((r) => r.method === 'PUT' && kindOf(r.path) === 'head');
    expect(heads).toHaveLength(1);
    const snapshots = engine.log(projectId).length;
    expect(engine.remoteStatus(projectId)).toMatchObject([{ state: 'up-to-date', behind: 0, pushed: snapshots, lastError: null }]);

    writeFileSync(join(root, 'later.txt'), 'later\n');
    await engine.checkpoint(projectId, 'later');
    expect(engine.remoteStatus(projectId)[0]).toMatchObject({ state: 'behind', behind: engine.log(projectId).length - snapshots });

    // A failing push is shown until one succeeds.
    autoPush.stop();
    const broken = engine.startAutoPush({ delayMs: 600_000, credentials: { accessKeyId: swift.accessKeyId, secretAccessKey: 'wrong' } });
    onTestFinished(() => broken.stop());
    writeFileSync(join(root, 'later2.txt'), 'later\n');
    await engine.checkpoint(projectId, 'later 2');
    broken.flush();
    await broken.idle();
    expect(engine.remoteStatus(projectId)[0]).toMatchObject({ state: 'error' });
    expect(engine.remoteStatus(projectId)[0]!.lastError).toContain('refused the credentials');
  });
});
