import { expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { cliJson, finished, startCli } from '../helpers/runCli.js';
import { loggedRequests, requestsSoFar } from '../../scripts/swift/proxyAccessLog.js';
import type { PushResult } from '../../electron/history/remote/push/pushProject.js';
import { describeWithSwift, storeFor } from './swiftTestKit.js';
import { kindOf, pushSetup, smallTree } from './remoteCli.js';
import { until } from '../helpers/until.js';

// A push killed (real SIGKILL of the CLI) at several points, then run again: the second run
// finishes the job, and no pack or large blob that reached the store is sent a second time.

describeWithSwift('a push killed midway, run again', (swift) => {
  const points: [string, (kinds: string[]) => boolean][] = [
    ['while sending data', (kinds) => kinds.filter((k) => k === 'pack').length >= 3],
    ['after the index', (kinds) => kinds.includes('index')],
    ['after the record', (kinds) => kinds.includes('record')],
  ];
  for (const [when, reached] of points) {
    it(`resumes after a SIGKILL ${when}, sending nothing twice`, async () => {
      const { root, env, bucket } = await pushSetup(swift, smallTree(400, 3));
      // Small packs: many of them, so the kill lands among them.
      const packEnv = { ...env, HINDSIGHT_REMOTE_PACK_BYTES: '4096' };
      // Polled while the push runs (what is logged already is enough), then counted once settled.
      const puts = (requests = loggedRequests(swift.proxyLog, bucket)) =>
        requests
          .filter((r) => r.method === 'PUT' && r.status < 300 && r.path !== `/${bucket}/`)
          .map((r) => ({ kind: kindOf(r.path), path: r.path.split('?')[0]! }));
      const child = startCli(['push', root, '--json'], packEnv);
      const done = finished(child);
      await until(() => reached(puts().map((p) => p.kind)), { everyMs: 3 }).finally(() => child.kill('SIGKILL'));
      const killed = await done;
      // Killed before it finished: it printed no result.
      if (killed.signal === 'SIGKILL') expect(killed.stdout.length).toBe(0);

      const second = await cliJson<PushResult>(['push', root], packEnv);
      const third = await cliJson<PushResult>(['push', root], packEnv);
      expect(third.upToDate).toBe(true);

      const data = puts(await requestsSoFar(swift, bucket)).filter((p) => p.kind === 'pack' || p.kind === 'blob');
      expect(new Set(data.map((p) => p.path)).size).toBe(data.length);

      // The head names every record and index, and the indexes locate every blob of the folder.
      const store = storeFor(swift, bucket, { location: { bucket, prefix: 'team/hs' } });
      try {
        const head = JSON.parse((await store.get(`projects/${second.projectId}/heads/${second.machine}.json`)).toString('utf8'));
        expect(head.snapshots).toBe(1);
        const located = new Set<string>();
        for (const key of head.indexes as string[]) {
          const index = JSON.parse(gunzipSync(await store.get(key)).toString('utf8'));
          for (const pack of index.packs) {
            expect(await store.head(`projects/${second.projectId}/packs/${pack.pack}`)).toBeDefined();
            for (const entry of pack.blobs) located.add(entry[0]);
          }
        }
        const record = JSON.parse(gunzipSync(await store.get(head.records[0])).toString('utf8'));
        const hashes = new Set<string>(record.snapshots[0].versions.map((v: { hash: string }) => v.hash));
        expect(hashes.size).toBe(400);
        for (const hash of hashes) expect(located.has(hash), hash).toBe(true);
      } finally {
        store.close();
      }
    });
  }
});
