import { expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { seededBytes, sha256 } from '../helpers/writeTree.js';
import { requestsSoFar } from '../../scripts/swift/proxyAccessLog.js';
import type { PushResult } from '../../electron/history/remote/push/pushProject.js';
import { describeWithSwift, storeFor, swiftEnv } from './swiftTestKit.js';
import { kindOf, pushSetup, smallTree } from './remoteCli.js';

// `hindsight remote` and `hindsight push` as a user runs them (the built CLI, real child
// processes) against the run's real Swift: what lands on the store, in which order, and what a
// second push costs.

describeWithSwift('hindsight remote and push against a real Swift', (swift) => {
  it('adds, lists and removes remotes in config.json, refusing bad input and never storing a secret', async () => {
    const dataDir = tempDir('hindsight-data-');
    const env = { ...swiftEnv(swift), HINDSIGHT_DATA_DIR: dataDir };
    const added = await cliJson(['remote', 'add', 'backup', 's3://my-bucket/some//prefix/', '--endpoint', 'http://127.0.0.1:9000/', '--path-style'], env);
    expect(added).toMatchObject({ name: 'backup', url: 's3://my-bucket/some/prefix', endpoint: 'http://127.0.0.1:9000', region: 'us-east-1', pathStyle: true });
    await cliJson(['remote', 'add', 'aws', 's3://other-bucket', '--region', 'eu-west-1'], env);
    const listed = await cliJson<{ name: string }[]>(['remote', 'list'], env);
    expect(listed.map((r) => r.name)).toEqual(['backup', 'aws']);

    const duplicate = await runCli(['remote', 'add', 'backup', 's3://x-bucket'], env);
    expect(duplicate.code).not.toBe(0);
    expect(duplicate.stderr).toContain('already a remote named backup');
    for (const [args, said] of [
      [['remote', 'add', 'bad', 'http://bucket/x'], 's3://bucket'],
      [['remote', 'add', 'bad', 's3://Bad_Bucket'], 'not a valid bucket name'],
      [['remote', 'add', 'bad', 's3://good-bucket/../up'], 'prefix segment'],
      [['remote', 'add', 'bad', 's3://good-bucket', '--endpoint', 'http://key:secret@host'], 'must not carry credentials'],
      [['remote', 'add', 'has space', 's3://good-bucket'], 'not a valid remote name'],
    ] as const) {
      const refused = await runCli([...args], env);
      expect(refused.code, args.join(' ')).not.toBe(0);
      expect(refused.stderr).toContain(said);
    }
    const config = readFileSync(join(dataDir, 'config.json'), 'utf8');
    expect(config).not.toContain(swift.secretAccessKey);
    expect(config).not.toContain('secret');
    expect(JSON.parse(config).remotes).toHaveLength(2);

    await cliJson(['remote', 'remove', 'aws'], env);
    expect((await cliJson<{ name: string }[]>(['remote', 'list'], env)).map((r) => r.name)).toEqual(['backup']);
    const missing = await runCli(['remote', 'remove', 'aws'], env);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('no remote named aws');
  });

  it('writes data, then the index, then the record, then the head; a second push with nothing new is one LIST', async () => {
    const spec = smallTree(120);
    spec['big/video.bin'] = seededBytes(7, 5 * 1024 * 1024);
    const { root, env, bucket } = await pushSetup(swift, spec);
    const first = await cliJson<PushResult>(['push', root], env);
    expect(first).toMatchObject({ upToDate: false, snapshots: 1, blobs: 121, resumed: 0 });

    const writes = (await requestsSoFar(swift, bucket)).filter((r) => r.method === 'PUT' && r.status < 300 && r.path !== `/${bucket}/`);
    const kinds = writes.map((w) => kindOf(w.path));
    // The marker first, then data (packs and the large blob alone), then one index, one record, one head.
    expect(kinds[0]).toBe('marker');
    const firstIndex = kinds.indexOf('index');
    expect(kinds.slice(1, firstIndex).every((k) => k === 'pack' || k === 'blob')).toBe(true);
    expect(kinds.slice(1, firstIndex)).toContain('blob');
    expect(kinds.slice(firstIndex)).toEqual(['index', 'record', 'head']);

    // What is on the store is what the layout says, and reads back to the folder's bytes.
    const store = storeFor(swift, bucket, { location: { bucket, prefix: 'team/hs' } });
    try {
      const keys = (await store.list('')).map((o) => o.key);
      const projectId = first.projectId;
      expect(keys).toContain('hindsight-remote.json');
      expect(keys).toContain(`projects/${projectId}/blobs/${sha256(spec['big/video.bin'] as Buffer)}`);
      const head = JSON.parse((await store.get(`projects/${projectId}/heads/${first.machine}.json`)).toString('utf8'));
      expect(head).toMatchObject({ format: 1, machine: { id: first.machine }, project: { id: projectId, root }, fork: null, lastOrigin: 1, snapshots: 1 });
      const record = JSON.parse(gunzipSync(await store.get(head.records[0])).toString('utf8'));
      expect(record.snapshots[0].versions).toHaveLength(121);
      const index = JSON.parse(gunzipSync(await store.get(head.indexes[0])).toString('utf8'));
      const packed = index.packs.flatMap((p: { blobs: unknown[] }) => p.blobs);
      expect(packed).toHaveLength(120);
      expect(index.standalone).toEqual([[sha256(spec['big/video.bin'] as Buffer), 5 * 1024 * 1024]]);
    } finally {
      store.close();
    }

    const before = (await requestsSoFar(swift, bucket)).length;
    const second = await cliJson<PushResult>(['push', root, '--remote', 'origin'], env);
    expect(second).toMatchObject({ upToDate: true, objects: 0 });
    const requests = (await requestsSoFar(swift, bucket)).slice(before);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'GET' });
    expect(requests[0]!.path).toContain('list-type=2');
  });

  it('sends only the new snapshots and the blobs the remote lacks', async () => {
    const { root, env, bucket } = await pushSetup(swift, smallTree(40));
    await cliJson<PushResult>(['push', root], env);
    writeFileSync(join(root, 'src/d0/f0.txt'), 'changed once\n');
    writeFileSync(join(root, 'src/new.txt'), 'a new file\n');
    await cliJson(['checkpoint', root, 'two changes'], env);
    const snapshots = (await cliJson<unknown[]>(['log', root], env)).length;
    const before = (await requestsSoFar(swift, bucket)).length;
    const second = await cliJson<PushResult>(['push', root], env);
    expect(second).toMatchObject({ upToDate: false, snapshots: snapshots - 1, blobs: 2, objects: 4 });
    const puts = (await requestsSoFar(swift, bucket))
      .slice(before)
      .filter((r) => r.method === 'PUT')
      .map((r) => kindOf(r.path));
    expect(puts).toEqual(['pack', 'index', 'record', 'head']);
  });

  it('prints nothing on stderr for a push on a supported Node (no runtime warning from the AWS SDK)', async () => {
    const { root, env } = await pushSetup(swift, smallTree(3));
    const pushed = await runCli(['push', root, '--json'], env);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stderr).not.toMatch(/NodeVersionSupportWarning|will require node/);
    expect(pushed.stderr).toBe('');
  });

  it('says which remote is meant when none is set or the name is unknown, and fails at once on wrong credentials or a missing bucket', async () => {
    const { root, env, dataDir } = await pushSetup(swift, smallTree(3));
    const unknown = await runCli(['push', root, '--remote', 'nope'], env);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('no remote named nope');

    const wrong = await runCli(['push', root, '--json'], { ...env, AWS_SECRET_ACCESS_KEY: 'not-the-secret', HINDSIGHT_REMOTE_RETRY_MS: '1' });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('refused the credentials');

    await cliJson(['remote', 'add', 'gone', `s3://hs-no-such-bucket-${Date.now()}`, '--endpoint', swift.endpoint, '--path-style'], env);
    const missing = await runCli(['push', root, '--remote', 'gone'], env);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('does not exist');

    const noKeys = await runCli(['push', root, '--remote', 'origin'], {
      HINDSIGHT_DATA_DIR: dataDir,
      AWS_ACCESS_KEY_ID: '',
      AWS_SECRET_ACCESS_KEY: '',
      AWS_PROFILE: 'hindsight-no-such-profile',
      AWS_CONFIG_FILE: join(dataDir, 'none'),
      AWS_SHARED_CREDENTIALS_FILE: join(dataDir, 'none'),
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    expect(noKeys.code).not.toBe(0);
    expect(noKeys.stderr).toMatch(/credentials/i);
  });
});
