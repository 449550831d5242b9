import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { startSwift, type PrivateSwift } from '../../../scripts/swift/privateSwift.js';
import { requestsSoFar } from '../../../scripts/swift/proxyAccessLog.js';
import { ensureFixture, type FixtureShape } from '../fixtures/generateFixture.js';
import { measureProcess, type ProcessMeasure } from '../measureProcess.js';

// `npm run bench:remote -- [--rounds N] [--shape seed-4005]`: Hindsight's push of a folder's
// history against `restic backup` of the same folder to the same private Swift (its S3 API, over
// TLS because restic's S3 client sends aws-chunked uploads over plain HTTP), wall time and
// requests (counted in the proxy's access log); then a second push with nothing new, and a clone
// on another data folder to a browsable history. Each round uses new buckets; the figures are
// ratios within the round, so the machine's load weighs on both sides alike.

const here = fileURLToPath(new URL('.', import.meta.url));
const root = resolve(here, '../..');
const CLI = join(root, 'out/bench/cli/hindsight.js');

interface Measured {
  wallMs: number;
  requests: number;
  puts: number;
  stdout: string;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '1' }, shape: { type: 'string', default: 'seed-4005' }, profile: { type: 'string' } },
  });
  const rounds = Number(values.rounds);
  // --profile DIR: the timed push runs under `node --cpu-prof` and leaves its .cpuprofile there.
  const profileDir = values.profile === undefined ? undefined : resolve(values.profile);
  const fixture = ensureFixture(join(root, '.bench/fixtures'), values.shape as FixtureShape);
  const swift = await startSwift({ tls: true });
  try {
    for (let round = 1; round <= rounds; round++) console.log(JSON.stringify({ round, ...(await oneRound(swift, fixture, profileDir)) }));
  } finally {
    await swift.stop();
  }
}

async function oneRound(swift: PrivateSwift, fixture: string, profileDir?: string): Promise<Record<string, unknown>> {
  const scratch = mkdtempSync(join(tmpdir(), 'hindsight-remote-bench-'));
  try {
    const env = {
      ...process.env,
      AWS_ACCESS_KEY_ID: swift.accessKeyId,
      AWS_SECRET_ACCESS_KEY: swift.secretAccessKey,
      AWS_REGION: swift.region,
      NODE_EXTRA_CA_CERTS: swift.caFile,
      RESTIC_PASSWORD: 'bench',
    };
    const hsBucket = await makeBucket(swift, 'hs');
    const resticBucket = await makeBucket(swift, 'rs');
    const dataDir = join(scratch, 'data');
    const hs = (args: string[], dir = dataDir) => measureProcess(process.execPath, [CLI, ...args, '--data-dir', dir, '--json'], { env });
    check(await hs(['open', fixture]), 'open');
    check(await hs(['remote', 'add', 'bench', `s3://${hsBucket}/h`, '--endpoint', swift.endpoint, '--region', swift.region, '--path-style']), 'remote add');

    const profiled = profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', profileDir];
    const push = await counted(swift, hsBucket, () =>
      measureProcess(process.execPath, [...profiled, CLI, 'push', fixture, '--data-dir', dataDir, '--json'], { env }),
    );
    const noop = await counted(swift, hsBucket, () => hs(['push', fixture]));
    const { projectId } = JSON.parse(noop.stdout) as { projectId: string };

    const repo = `s3:${swift.endpoint}/${resticBucket}/restic`;
    const resticArgs = ['--repo', repo, '--cacert', swift.caFile!, '--no-cache', '--quiet'];
    execFileSync('restic', ['init', ...resticArgs], { env, stdio: 'ignore' });
    const restic = await counted(swift, resticBucket, () => measureProcess('restic', ['backup', ...resticArgs, '.'], { cwd: fixture, env }));

    const otherData = join(scratch, 'other');
    mkdirSync(otherData);
    check(
      await hs(['remote', 'add', 'bench', `s3://${hsBucket}/h`, '--endpoint', swift.endpoint, '--region', swift.region, '--path-style'], otherData),
      'remote add',
    );
    const clone = await counted(swift, hsBucket, () => hs(['clone', '--project', projectId, '--into', join(scratch, 'clone')], otherData));

    const shown = (m: Measured) => ({ wallMs: m.wallMs, requests: m.requests, puts: m.puts });
    return {
      shape: fixture.split('/').at(-1),
      push: shown(push),
      restic: shown(restic),
      noopPush: shown(noop),
      clone: shown(clone),
      pushTimeRatio: round2(push.wallMs / restic.wallMs),
      pushRequestRatio: round2(push.requests / restic.requests),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function counted(swift: PrivateSwift, bucket: string, run: () => Promise<ProcessMeasure>): Promise<Measured> {
  const before = (await requestsSoFar(swift, bucket)).length;
  const measure = check(await run(), 'run');
  const requests = (await requestsSoFar(swift, bucket)).slice(before);
  return { wallMs: Math.round(measure.wallMs), requests: requests.length, puts: requests.filter((r) => r.method === 'PUT').length, stdout: measure.stdout };
}

function check(measure: ProcessMeasure, what: string): ProcessMeasure {
  if (measure.code !== 0) throw new Error(`${what} failed (${measure.code}): ${measure.stderr.slice(0, 2000)}`);
  return measure;
}

async function makeBucket(swift: PrivateSwift, prefix: string): Promise<string> {
  const bucket = `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const client = new S3Client({
    endpoint: swift.endpoint,
    region: swift.region,
    forcePathStyle: true,
    credentials: { accessKeyId: swift.accessKeyId, secretAccessKey: swift.secretAccessKey },
    requestHandler: { httpsAgent: new Agent({ ca: readFileSync(swift.caFile!) }) },
  });
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    client.destroy();
  }
  return bucket;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

await main();
