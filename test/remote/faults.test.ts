import { afterAll, beforeAll, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { cliJson, finished, runCli, startCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { seededBytes, sha256 } from '../helpers/writeTree.js';
import { blobFile, chunksOf } from '../helpers/storedBlob.js';
import { loggedRequests, requestsSoFar } from '../../scripts/swift/proxyAccessLog.js';
import { startSwift, type PrivateSwift } from '../../scripts/swift/privateSwift.js';
import type { PushResult } from '../../electron/history/remote/push/pushProject.js';
import type { CloneResult } from '../../electron/history/remote/fetch/cloneProject.js';
import { decodeRecord, encodeRecord, type RecordedSnapshot } from '../../electron/history/remoteLayout/recordFormat.js';
import { hashOfKey, recordKey } from '../../electron/history/remoteLayout/remoteKeys.js';
import { describeWithSwift, storeFor, swiftEnv } from './swiftTestKit.js';
import type { ProvidedSwift } from './swiftSetup.js';
import { kindOf, pushSetup, smallTree } from './remoteCli.js';
import { until } from '../helpers/until.js';

// Faults against a real Swift: an object damaged on the server, a server that stops in the middle
// of a push (a Swift of this file's own, so the other files' server keeps running), two machines
// pushing one project at the same moment.

async function machineTwo(swift: ProvidedSwift, bucket: string): Promise<NodeJS.ProcessEnv> {
  const env = { ...swiftEnv(swift), HINDSIGHT_DATA_DIR: tempDir('hindsight-data-') };
  await cliJson(['remote', 'add', 'origin', `s3://${bucket}/team/hs`, '--endpoint', swift.endpoint, '--region', swift.region, '--path-style'], env);
  return env;
}

/** The history stores of a data folder. */
function storeFolders(dataDir: string): string[] {
  const projects = join(dataDir, 'projects');
  return existsSync(projects) ? readdirSync(projects) : [];
}

function blobFiles(dataDir: string): string[] {
  const projects = join(dataDir, 'projects');
  if (!existsSync(projects)) return [];
  return readdirSync(projects).flatMap((id) => {
    const blobs = join(projects, id, 'blobs');
    return existsSync(blobs)
      ? readdirSync(blobs)
          .filter((d) => d.length === 2)
          .flatMap((d) => readdirSync(join(blobs, d)))
      : [];
  });
}

describeWithSwift('remote faults', (swift) => {
  it('a pack damaged on the server is caught by its hash: the clone fails, writes no file and stores no blob', async () => {
    const { root, env, bucket } = await pushSetup(swift, smallTree(30, 21));
    const pushed = await cliJson<PushResult>(['push', root], env);
    const store = storeFor(swift, bucket, { location: { bucket, prefix: 'team/hs' } });
    try {
      const head = JSON.parse((await store.get(`projects/${pushed.projectId}/heads/${pushed.machine}.json`)).toString('utf8'));
      const index = JSON.parse(gunzipSync(await store.get(head.indexes[0])).toString('utf8'));
      const packKey = `projects/${pushed.projectId}/packs/${index.packs[0].pack}`;
      const bytes = await store.get(packKey);
      // One byte flipped in the first blob, same length: only the hash can tell.
      bytes[3] = bytes[3]! ^ 0xff;
      await store.put(packKey, bytes);
    } finally {
      store.close();
    }
    const env2 = await machineTwo(swift, bucket);
    const into = join(tempDir(), 'clone');
    const failed = await runCli(['clone', '--project', pushed.projectId, '--into', into], env2);
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain('is damaged');
    expect(existsSync(into)).toBe(false);
    // The store the clone made goes with its registration: not even the blobs that arrived intact stay.
    expect(storeFolders(env2.HINDSIGHT_DATA_DIR!)).toEqual([]);
    expect(await cliJson<unknown[]>(['projects'], env2)).toEqual([]);
  });

  it('a snapshot record listing a path twice, an id twice with other contents, or a size its pack index contradicts is refused by a clone and a pull before anything is written', async () => {
    const { root, env, bucket } = await pushSetup(swift, smallTree(6, 51));
    const pushed = await cliJson<PushResult>(['push', root], env);
    const env2 = await machineTwo(swift, bucket);
    const cloned = join(tempDir(), 'cloned');
    await cliJson<CloneResult>(['clone', '--project', pushed.projectId, '--into', cloned], env2);
    const log = await cliJson<unknown[]>(['log', cloned], env2);
    writeFileSync(join(root, 'new.txt'), 'one more');
    await cliJson(['checkpoint', root, 'second'], env);
    await cliJson<PushResult>(['push', root], env);

    const store = storeFor(swift, bucket, { location: { bucket, prefix: 'team/hs' } });
    const headKey = `projects/${pushed.projectId}/heads/${pushed.machine}.json`;
    const head = JSON.parse((await store.get(headKey)).toString('utf8')) as { records: string[] };
    const record = decodeRecord(await store.get(head.records.at(-1)!), hashOfKey(pushed.projectId, 'record', head.records.at(-1)!));
    const added = record.snapshots[0]!.versions.find((v) => v.path === 'new.txt')!;
    /** The head's newest record replaced by one whose snapshots `edit` changed (a new object under its own hash). */
    const tamper = async (edit: (snapshots: RecordedSnapshot[]) => RecordedSnapshot[]) => {
      const snapshots = edit(structuredClone(record.snapshots));
      const { body, hash } = encodeRecord(pushed.machine, snapshots);
      const key = recordKey(pushed.projectId, pushed.machine, snapshots[0]!.idOnMachine, snapshots.at(-1)!.idOnMachine, hash);
      await store.put(key, body);
      await store.put(headKey, Buffer.from(JSON.stringify({ ...head, records: [...head.records.slice(0, -1), key] })));
    };
    const cases = [
      {
        edit: (s: RecordedSnapshot[]) => [{ ...s[0]!, versions: [...s[0]!.versions, s[0]!.versions[0]!] }],
        says: `lists ${record.snapshots[0]!.versions[0]!.path} twice`,
      },
      { edit: (s: RecordedSnapshot[]) => [s[0]!, { ...s[0]!, label: 'another' }], says: `snapshot ${record.snapshots[0]!.idOnMachine} is listed twice` },
      {
        // Every version of those contents says one byte more than the pack index does.
        edit: (s: RecordedSnapshot[]) => [{ ...s[0]!, versions: s[0]!.versions.map((v) => (v.hash === added.hash ? { ...v, size: v.size + 1 } : v)) }],
        says: `the contents ${added.hash!.slice(0, 12)}… is ${added.size} bytes, its versions say ${added.size + 1}`,
      },
    ];
    try {
      for (const { edit, says } of cases) {
        await tamper(edit);
        const pulled = await runCli(['pull', cloned], env2);
        expect(pulled.code).toBe(1);
        expect(pulled.stderr.trim().split('\n')).toEqual([expect.stringContaining(says)]);
        expect(await cliJson<unknown[]>(['log', cloned], env2)).toEqual(log);
        const env3 = await machineTwo(swift, bucket);
        const into = join(tempDir(), 'three');
        const refused = await runCli(['clone', '--project', pushed.projectId, '--into', into], env3);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain(says);
        expect(existsSync(into)).toBe(false);
        expect(storeFolders(env3.HINDSIGHT_DATA_DIR!)).toEqual([]);
      }
    } finally {
      store.close();
    }
  });

  it('a large blob damaged on this disk is refused by name while it is read: never uploaded, the push stops, a repaired push sends it', async () => {
    const spec = smallTree(20, 41);
    const video = seededBytes(43, 5 * 1024 * 1024);
    spec['big/video.bin'] = video;
    const { root, env, bucket, dataDir } = await pushSetup(swift, spec);
    const hash = sha256(video);
    const projectId = readdirSync(join(dataDir, 'projects'))[0]!;
    // Stored in chunks: the last one damaged. Same length, one bit changed deep inside: only
    // hashing every byte read can tell.
    const blobsDir = join(dataDir, 'projects', projectId, 'blobs');
    const chunk = chunksOf(blobsDir, hash).at(-1)!;
    const stored = blobFile(blobsDir, chunk);
    expect(stored.endsWith(chunk)).toBe(true); // random bytes stay raw
    const damaged = readFileSync(stored);
    damaged[damaged.length - 17]! ^= 0x01;
    writeFileSync(stored, damaged);

    const failed = await runCli(['push', root], env);
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain('big/video.bin');
    expect(failed.stderr).toContain(hash.slice(0, 12));
    expect(failed.stderr).toContain('damaged');
    const kinds = (await requestsSoFar(swift, bucket)).filter((r) => r.method === 'PUT' && r.status < 300).map((r) => ({ kind: kindOf(r.path), path: r.path }));
    // The damaged blob never went up, and nothing names what the remote lacks.
    expect(kinds.filter((k) => k.path.includes(hash))).toEqual([]);
    expect(kinds.map((k) => k.kind)).not.toContain('index');
    expect(kinds.map((k) => k.kind)).not.toContain('head');

    // The folder still has the right bytes: verify --repair writes the blob again, and the next
    // push sends it (and what it had not sent yet).
    const repaired = await runCli(['verify', root, '--repair'], env);
    expect(repaired.code, repaired.stderr).toBe(0);
    const pushed = await cliJson<PushResult>(['push', root], env);
    expect(pushed.upToDate).toBe(false);
    const store = storeFor(swift, bucket, { location: { bucket, prefix: 'team/hs' } });
    try {
      expect(sha256(await store.get(`projects/${pushed.projectId}/blobs/${hash}`))).toBe(hash);
    } finally {
      store.close();
    }
  });

  it('two machines pushing the same project at the same moment keep both histories', async () => {
    const { root, env, bucket } = await pushSetup(swift, smallTree(20, 31));
    const pushed = await cliJson<PushResult>(['push', root], env);
    const env2 = await machineTwo(swift, bucket);
    const into = join(tempDir(), 'two');
    await cliJson<CloneResult>(['clone', '--project', pushed.projectId, '--into', into], env2);
    for (let i = 0; i < 5; i++) {
      writeFileSync(join(root, `one-${i}.txt`), `machine one ${i}\n`);
      writeFileSync(join(into, `two-${i}.txt`), `machine two ${i}\n`);
    }
    await cliJson(['checkpoint', root, 'one'], env);
    await cliJson(['checkpoint', into, 'two'], env2);
    const [a, b] = await Promise.all([cliJson<PushResult>(['push', root], env), cliJson<PushResult>(['push', into], env2)]);
    expect(a.upToDate || b.upToDate).toBe(false);

    // A third machine sees both lines: clones of each machine's newest snapshot hold its files.
    const env3 = await machineTwo(swift, bucket);
    const fromOne = join(tempDir(), 'one');
    await cliJson(
      [
        'clone',
        '--project',
        pushed.projectId,
        '--into',
        fromOne,
        '--snapshot',
        `${a.machine}:${(await cliJson<{ snapshotId: number }[]>(['log', root], env)).at(-1)!.snapshotId}`,
      ],
      env3,
    );
    expect(readFileSync(join(fromOne, 'one-4.txt'), 'utf8')).toBe('machine one 4\n');
    expect(existsSync(join(fromOne, 'two-4.txt'))).toBe(false);
    const env4 = await machineTwo(swift, bucket);
    const newest = join(tempDir(), 'newest');
    const cloned = await cliJson<CloneResult>(['clone', '--project', pushed.projectId, '--into', newest], env4);
    expect(cloned.from.machine).toBe(b.machine);
    expect(readFileSync(join(newest, 'two-4.txt'), 'utf8')).toBe('machine two 4\n');
    expect(readFileSync(join(newest, 'src/d0/f0.txt'))).toEqual(readFileSync(join(root, 'src/d0/f0.txt')));
  });
});

describeWithSwift('a push while the server stops', () => {
  let own: PrivateSwift;
  beforeAll(async () => {
    own = await startSwift();
  }, 120_000);
  afterAll(async () => {
    await own?.stop();
  });

  it('a clone cut off by the server stopping leaves no store and no blob, and the next clone finishes', async () => {
    const provided: ProvidedSwift = { ...own, proxyLog: own.proxyLog };
    const { root, env, bucket } = await pushSetup(provided, smallTree(300, 61));
    const small = { HINDSIGHT_REMOTE_PACK_BYTES: '4096', HINDSIGHT_REMOTE_RETRIES: '2', HINDSIGHT_REMOTE_RETRY_MS: '20' };
    const pushed = await cliJson<PushResult>(['push', root], { ...env, ...small });
    const env2: NodeJS.ProcessEnv = { ...(await machineTwo(provided, bucket)), ...small };
    const into = join(tempDir(), 'clone');
    const child = startCli(['clone', '--project', pushed.projectId, '--into', into], env2);
    const done = finished(child);
    // Stopped once some blobs of the clone are stored, well before all 300 are.
    await until(() => blobFiles(env2.HINDSIGHT_DATA_DIR!).length >= 20, { everyMs: 3 });
    await own.stopProxy('SIGKILL');
    const failed = await done;
    await own.startProxy();
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('Cannot reach');
    expect(existsSync(into)).toBe(false);
    expect(storeFolders(env2.HINDSIGHT_DATA_DIR!)).toEqual([]);
    expect(await cliJson<unknown[]>(['projects'], env2)).toEqual([]);

    const cloned = await cliJson<CloneResult>(['clone', '--project', pushed.projectId, '--into', into], env2);
    expect(cloned.files).toBe(300);
    expect(readFileSync(join(into, 'src/d0/f0.txt'))).toEqual(readFileSync(join(root, 'src/d0/f0.txt')));
  });

  it('fails with a clear error after retrying, and the next push resumes without sending anything twice', async () => {
    const provided: ProvidedSwift = { ...own, proxyLog: own.proxyLog };
    const { root, env, bucket } = await pushSetup(provided, smallTree(400, 41));
    const faultEnv = { ...env, HINDSIGHT_REMOTE_PACK_BYTES: '4096', HINDSIGHT_REMOTE_RETRIES: '3', HINDSIGHT_REMOTE_RETRY_MS: '20' };
    // Polled while the push runs (what is logged already is enough), then counted once settled.
    const puts = (requests = loggedRequests(own.proxyLog, bucket)) =>
      requests
        .filter((r) => r.method === 'PUT' && r.status < 300 && r.path !== `/${bucket}/`)
        .map((r) => ({ kind: kindOf(r.path), path: r.path.split('?')[0]! }));
    const child = startCli(['push', root], faultEnv);
    const done = finished(child);
    await until(() => puts().filter((p) => p.kind === 'pack').length >= 3, { everyMs: 3 });
    await own.stopProxy('SIGKILL');
    const failed = await done;
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('Cannot reach');
    await own.startProxy();

    const resumed = await cliJson<PushResult>(['push', root], faultEnv);
    expect(resumed.upToDate).toBe(false);
    expect((await cliJson<PushResult>(['push', root], faultEnv)).upToDate).toBe(true);
    const data = puts(await requestsSoFar(own, bucket)).filter((p) => p.kind === 'pack' || p.kind === 'blob');
    expect(new Set(data.map((p) => p.path)).size).toBe(data.length);
  });
});
