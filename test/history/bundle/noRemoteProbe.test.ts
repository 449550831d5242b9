import { expect, it } from 'vitest';
import { join } from 'node:path';
import { addRemote, remoteFromInput } from '../../../electron/history/remote/remoteConfig.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { historyWithChanges } from './bundleHelpers.js';

// An export and a snapshot written into a new folder name every blob of the history. Whether some
// are only on a remote is asked of a remote first: with none configured, not one blob is probed;
// with one, each blob named is probed once (and nothing is fetched: all are here).

it('probes no blob for a remote when there is no remote, and each blob once when there is one', async () => {
  const { engine, projectId } = await historyWithChanges();
  const latest = engine.log(projectId)[0]!.snapshotId;

  resetTrace();
  await engine.exportHistory(projectId, { file: join(tempDir(), 'a.hsb') });
  await engine.materializeSnapshot(projectId, latest, join(tempDir(), 'copy'));
  expect(counter('remote.blobsProbed')).toBe(0);

  await engine.config.editConfig(
    addRemote(remoteFromInput({ name: 'origin', url: 's3://nowhere/p', endpoint: 'http://127.0.0.1:9', region: 'us-east-1', pathStyle: true })),
  );
  resetTrace();
  await engine.exportHistory(projectId, { file: join(tempDir(), 'b.hsb') });
  const exported = counter('remote.blobsProbed');
  await engine.materializeSnapshot(projectId, latest, join(tempDir(), 'copy'));
  expect(exported).toBeGreaterThan(0);
  expect(counter('remote.blobsProbed')).toBeGreaterThan(exported);
});
