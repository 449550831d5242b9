import { expect, it } from 'vitest';
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { exportBundleTo } from '../../../electron/history/bundle/bundleTransfer.js';
import { localBlobSource, materializeSnapshot } from '../../../electron/history/restore/materializeSnapshot.js';
import { blobPath } from '../../../electron/history/store/storeLayout.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { readTree, seededBytes, sha256, type TreeSpec } from '../../helpers/writeTree.js';
import { projectWithBaseline, type Project } from '../versions/versionsHelpers.js';

// An export or a snapshot written into a new folder reads the small blobs of a long list ahead on
// worker threads (store/readAhead.ts). A list this short takes that path only with the threshold
// lowered (one thread per blob): the output must be the same bytes as the inline reads', a
// damaged blob read on a thread must stop the run like an inline read does, and be noted as damage.

const SPEC: TreeSpec = {
  'a.txt': 'alpha\n',
  'b/b.txt': 'beta\n',
  'b/c/c.bin': seededBytes(5, 200_000),
  'big.bin': seededBytes(6, 1_500_000),
  'dup-1.txt': 'same bytes',
  'dup-2.txt': 'same bytes',
  'empty.txt': '',
  'run.sh': { data: '#!/bin/sh\n', mode: 0o750 },
  link: { link: 'a.txt' },
};
const THREADED = { blobsPerThread: 1 };

function baselineContents({ store, projectId }: Project) {
  const snapshotId = store.index.snapshotReads.baselineId()!;
  return {
    projectId,
    snapshotId,
    files: store.index.files.filesAt(snapshotId),
    folderModeOf: (path: string) => store.index.folderModes.folderModeAt(snapshotId, path),
  };
}

it('exports the same bytes with the read-ahead as without, reading the small blobs on threads', async () => {
  const { store } = await projectWithBaseline(SPEC);
  const out = tempDir();
  resetTrace();
  await exportBundleTo(store, { file: join(out, 'inline.hsb') }, {});
  expect(counter('push.workerBlobs')).toBe(0);
  await exportBundleTo(store, { file: join(out, 'ahead.hsb') }, { readAhead: THREADED });
  // Every non-empty blob of at most 1 MiB, once (big.bin is streamed inline): a.txt, b.txt, c.bin,
  // the dup, run.sh and the link's target.
  expect(counter('push.workerBlobs')).toBe(6);
  expect(readFileSync(join(out, 'ahead.hsb')).equals(readFileSync(join(out, 'inline.hsb')))).toBe(true);
});

it('writes a snapshot into a new folder exactly with the read-ahead, a repeated blob read again', async () => {
  const project = await projectWithBaseline(SPEC);
  const contents = baselineContents(project);
  resetTrace();
  const into = join(tempDir(), 'copy');
  await materializeSnapshot(contents, into, localBlobSource(project.store.blobs, THREADED));
  // dup-1 and dup-2 share a blob: listed twice, read twice (the second alone).
  expect(counter('push.workerBlobs')).toBe(6);
  expect(readTree(into)).toEqual(readTree(project.root));
});

it('stops at a damaged blob read ahead: no bundle, no folder, the damage noted', async () => {
  const project = await projectWithBaseline(SPEC);
  const { store } = project;
  const hash = sha256('beta\n');
  const blob = blobPath(store.blobs.dir, hash);
  chmodSync(blob, 0o600);
  writeFileSync(blob, 'betA\n');

  const bundle = join(tempDir(), 'x.hsb');
  const exported = await exportBundleTo(store, { file: bundle }, { readAhead: THREADED }).catch((e: unknown) => e);
  expect(exported).toMatchObject({ code: 'BLOB_CORRUPT', details: { hash } });
  expect(readdirSync(dirname(bundle))).toEqual([]);

  const into = join(tempDir(), 'copy');
  const written = await materializeSnapshot(baselineContents(project), into, localBlobSource(store.blobs, THREADED)).catch((e: unknown) => e);
  expect(written).toMatchObject({ code: 'BLOB_CORRUPT', details: { hash, path: 'b/b.txt' } });
  expect(existsSync(into)).toBe(false);
  expect(readdirSync(dirname(into))).toEqual([]);
  expect(store.index.damage.damagedHashes()).toContain(hash);
});

it('keeps at most 8 MiB (and one batch) read ahead of the writer', async () => {
  const spec: TreeSpec = {};
  for (let i = 0; i < 14; i++) spec[`mib-${i}.bin`] = seededBytes(100 + i, 1024 * 1024);
  const { store } = await projectWithBaseline(spec);
  resetTrace();
  await exportBundleTo(store, { file: join(tempDir(), 'big.hsb') }, { readAhead: THREADED });
  expect(counter('push.workerBlobs')).toBe(14);
  expect(counter('push.bytesAhead')).toBeGreaterThanOrEqual(4 * 1024 * 1024);
  expect(counter('push.bytesAhead')).toBeLessThanOrEqual(9 * 1024 * 1024);
});
