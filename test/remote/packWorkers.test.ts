import { expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { requestsSoFar } from '../../scripts/swift/proxyAccessLog.js';
import { PackBuilder } from '../../electron/history/remoteLayout/packFormat.js';
import type { PushResult } from '../../electron/history/remote/push/pushProject.js';
import { describeWithSwift, storeFor } from './swiftTestKit.js';
import { kindOf, pushSetup, smallTree } from './remoteCli.js';

// A push reads, hashes and compresses its small blobs on pack worker threads (push/packWorkers.ts),
// counted by the CLI's trace: every small blob's stored form comes from a worker, none is made on
// the push's own thread, and the packs are byte for byte what one thread makes from the same blobs
// (so a resumed push still finds its packs by name). A blob damaged on disk is refused in the worker.

function lastTrace(file: string): Record<string, number> {
  return JSON.parse(readFileSync(file, 'utf8').trim().split('\n').at(-1)!) as Record<string, number>;
}

describeWithSwift('a push packs on its worker threads', (swift) => {
  it("makes every small blob's stored form in a worker, and packs exactly what one thread would", async () => {
    const spec = smallTree(300, 5);
    const { root, env, bucket, dataDir } = await pushSetup(swift, spec);
    const trace = join(tempDir('hindsight-trace-'), 'trace.jsonl');
    // Small packs, so the pack boundaries (cut on this thread from the workers' stored forms) are tested too.
    const pushed = await cliJson<PushResult>(['push', root], { ...env, HINDSIGHT_TRACE: trace, HINDSIGHT_REMOTE_PACK_BYTES: '65536' });
    expect(pushed).toMatchObject({ upToDate: false, blobs: 300 });

    const counters = lastTrace(trace);
    expect(counters['push.workerBlobs']).toBe(300);
    expect(counters['push.workerBatches']).toBeGreaterThanOrEqual(2);
    expect(counters['push.threadBlobs'] ?? 0).toBe(0);

    const projectId = readdirSync(join(dataDir, 'projects'))[0]!;
    const blobs = join(dataDir, 'projects', projectId, 'blobs');
    const store = storeFor(swift, bucket, { location: { bucket, prefix: 'team/hs' } });
    try {
      const head = JSON.parse((await store.get(`projects/${pushed.projectId}/heads/${pushed.machine}.json`)).toString('utf8'));
      const index = JSON.parse(gunzipSync(await store.get(head.indexes[0])).toString('utf8'));
      expect(index.packs.length).toBeGreaterThan(2);
      for (const pack of index.packs as { pack: string; blobs: [string][] }[]) {
        const builder = new PackBuilder();
        for (const [hash] of pack.blobs) builder.add(hash, readFileSync(join(blobs, hash.slice(0, 2), hash)));
        expect(builder.finish().hash).toBe(pack.pack);
      }
    } finally {
      store.close();
    }
    const puts = (await requestsSoFar(swift, bucket)).filter((r) => r.method === 'PUT' && r.status < 300 && r.path !== `/${bucket}/`);
    expect(puts.filter((r) => kindOf(r.path) === 'pack')).toHaveLength(pushed.objects - 3);
  });

  it('refuses a small blob damaged on disk in the worker that reads it: the push fails naming it, no index or head is written', async () => {
    const spec = smallTree(60, 9);
    const { root, env, bucket, dataDir } = await pushSetup(swift, spec);
    const projectId = readdirSync(join(dataDir, 'projects'))[0]!;
    const blobs = join(dataDir, 'projects', projectId, 'blobs');
    const dir = readdirSync(blobs).filter((d) => d.length === 2)[0]!;
    const hash = readdirSync(join(blobs, dir))[0]!;
    const stored = join(blobs, dir, hash);
    const damaged = readFileSync(stored);
    damaged[damaged.length - 1]! ^= 0x01;
    writeFileSync(stored, damaged);
    const trace = join(tempDir('hindsight-trace-'), 'trace.jsonl');

    const failed = await runCli(['push', root], { ...env, HINDSIGHT_TRACE: trace });
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain(hash.slice(0, 12));
    expect(failed.stderr).toContain('damaged');
    expect(lastTrace(trace)['push.threadBlobs'] ?? 0).toBe(0);
    const kinds = (await requestsSoFar(swift, bucket)).filter((r) => r.method === 'PUT' && r.status < 300).map((r) => kindOf(r.path));
    expect(kinds).not.toContain('index');
    expect(kinds).not.toContain('head');
  });
});
