import { cliJson } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { seededBytes, writeTree, type TreeSpec } from '../helpers/writeTree.js';
import { newBucket, swiftEnv } from './swiftTestKit.js';
import type { ProvidedSwift } from './swiftSetup.js';

// A folder with a history and a remote named origin on a new bucket of the run's Swift, as a
// user sets it up with the CLI; and what kind of layout object a logged request wrote.

export interface Setup {
  root: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  bucket: string;
}

export async function pushSetup(swift: ProvidedSwift, spec: TreeSpec, prefix = 'team/hs'): Promise<Setup> {
  const root = tempDir();
  writeTree(root, spec);
  const dataDir = tempDir('hindsight-data-');
  const bucket = await newBucket(swift);
  const env = { ...swiftEnv(swift), HINDSIGHT_DATA_DIR: dataDir };
  await cliJson(['open', root], env);
  await cliJson(['remote', 'add', 'origin', `s3://${bucket}/${prefix}`, '--endpoint', swift.endpoint, '--region', swift.region, '--path-style'], env);
  return { root, dataDir, env, bucket };
}

export function smallTree(files: number, seed = 1): TreeSpec {
  const spec: TreeSpec = {};
  for (let i = 0; i < files; i++) spec[`src/d${i % 7}/f${i}.txt`] = seededBytes(seed * 100_000 + i, 200 + ((i * 37) % 3000));
  return spec;
}

export function kindOf(path: string): string {
  if (path.includes('/hindsight-remote.json')) return 'marker';
  if (/\/packs\/[0-9a-f]{64}/.test(path)) return 'pack';
  if (/\/blobs\/[0-9a-f]{64}/.test(path)) return 'blob';
  if (/\/index\/[0-9a-f]{64}\.json\.gz/.test(path)) return 'index';
  if (/\/snapshots\//.test(path)) return 'record';
  if (/\/heads\//.test(path)) return 'head';
  return path;
}
