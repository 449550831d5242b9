import { expect, it } from 'vitest';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CloneResult } from '../../electron/history/remote/fetch/cloneProject.js';
import type { PushResult } from '../../electron/history/remote/push/pushProject.js';
import type { PullResult } from '../../shared/contract/values.js';
import type { SnapshotInfo } from '../../shared/history.js';
import { describeOnFoldFs } from '../helpers/foldMount.js';
import { cliJson, finished, runCli, startCli } from '../helpers/runCli.js';
import { until } from '../helpers/until.js';
import { tempDir } from '../helpers/tempDirs.js';
import { pushSetup } from './remoteCli.js';
import { describeWithSwift, swiftEnv } from './swiftTestKit.js';

// A history pushed from a folder that tells `Notes.txt` from `notes.txt`, brought to a folder
// whose names fold (the FUSE layer): a pull says which names collide there; a clone whose files
// would land on one file is refused before anything is fetched or written.

describeWithSwift('histories brought to a folder whose names fold', (swift) => {
  describeOnFoldFs('pull and clone', (mount) => {
    it('a pull lists the colliding names, a clone holding them is refused writing nothing', async () => {
      const { root, env, bucket } = await pushSetup(swift, { 'a.txt': 'a\n' });
      const pushed = await cliJson<PushResult>(['push', root], env);
      const addRemote = async (dataDir: string) => {
        const machine = { ...swiftEnv(swift), HINDSIGHT_DATA_DIR: dataDir };
        await cliJson(['remote', 'add', 'origin', `s3://${bucket}/team/hs`, '--endpoint', swift.endpoint, '--region', swift.region, '--path-style'], machine);
        return machine;
      };

      // Machine two clones while the names are apart, then pulls them in.
      const two = await addRemote(tempDir('hindsight-data-'));
      const cloned = join(mkdtempSync(join(mount().dir, 'two-')), 'clone');
      await cliJson<CloneResult>(['clone', '--remote', 'origin', '--project', pushed.projectId, '--into', cloned], two);
      writeFileSync(join(root, 'Notes.txt'), 'Upper Notes\n');
      writeFileSync(join(root, 'notes.txt'), 'lower notes\n');
      await cliJson(['checkpoint', root, 'both'], env);
      await cliJson(['push', root], env);
      // The names are told before the pull writes anything: stopped there, stderr already has them
      // and the history has not changed; killed there, the next pull brings the snapshots in.
      const stopped = startCli(['pull', cloned, '--json'], { ...two, HINDSIGHT_STOP_AT: 'pull-writing' });
      const stoppedDone = finished(stopped);
      let told = '';
      stopped.stderr!.on('data', (chunk: Buffer) => (told += chunk.toString()));
      await until(() => told.includes('stopped at pull-writing'));
      expect(told).toContain('  Notes.txt and notes.txt\n');
      stopped.kill('SIGKILL');
      await stoppedDone;
      expect((await cliJson<SnapshotInfo[]>(['log', cloned], two)).some((s) => s.label === 'both')).toBe(false);
      const pulled = await runCli(['pull', cloned, '--json'], two);
      expect(pulled.code).toBe(0);
      expect((JSON.parse(pulled.stdout.toString()) as PullResult).collidingNames).toEqual([['Notes.txt', 'notes.txt']]);
      expect(pulled.stderr).toContain('  Notes.txt and notes.txt\n');

      // Machine three clones the newest snapshot, which holds both: refused, the folder left empty.
      const three = await addRemote(tempDir('hindsight-data-'));
      const into = join(mkdtempSync(join(mount().dir, 'three-')), 'clone');
      const refused = await runCli(['clone', '--remote', 'origin', '--project', pushed.projectId, '--into', into], three);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('Notes.txt and notes.txt');
      expect(readdirSync(join(into, '..'))).toEqual([]);
    });
  });
});
