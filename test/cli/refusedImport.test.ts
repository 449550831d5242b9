import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BundleSnapshotWire, FolderModeRow } from '../../electron/history/bundle/bundleFormat.js';
import { editBundle, type BundleRecord } from '../helpers/bundleRecords.js';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';

// A refused import leaves nothing behind: the project list as it was, no store folder, no blob.
// The bundles are damaged in every way a stream can be (cut off, a flipped byte, a record of the
// wrong shape) and made inconsistent with a valid digest (a path twice, an id twice, a size that
// is not its blob's, an id beyond what a history holds, a folder mode of a snapshot not carried
// or outside the project, a root that is empty or relative): each is refused with one line
// naming what is wrong.

/** Every file under the data folder's projects/, blobs and store folders included. */
function storeFiles(dataDir: string, rel = 'projects'): string[] {
  const dir = join(dataDir, rel);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? [`${rel}/${e.name}/`, ...storeFiles(dataDir, `${rel}/${e.name}`)] : [`${rel}/${e.name}`],
  );
}

/** What a refused import must leave as it was (the database's own -wal and -shm files aside). */
function lasting(dataDir: string): string[] {
  return storeFiles(dataDir).filter((f) => !f.endsWith('-wal') && !f.endsWith('-shm'));
}

const snapshotsOf = (records: BundleRecord[]) => records.filter((r) => r.kind === 'S').flatMap((r) => r.value as BundleSnapshotWire[]);
const header = (records: BundleRecord[]) => records.find((r) => r.kind === 'H')!.value as { root: string };

describe('a refused import', () => {
  it('registers nothing and stores nothing, and says in one line what is wrong', async () => {
    const root = tempDir();
    const dataA = tempDir('hindsight-data-');
    writeTree(root, { 'a.txt': 'one', 'src/b.txt': 'two', 'src/deep/c.txt': 'three' });
    await cliJson(['open', root, '--data-dir', dataA]);
    writeFileSync(join(root, 'a.txt'), 'one, edited');
    await cliJson(['open', root, '--data-dir', dataA]);
    const dir = tempDir();
    await cliJson(['export', root, '--to', join(dir, 'good.hsb'), '--data-dir', dataA]);
    const good = readFileSync(join(dir, 'good.hsb'));
    const blobAt = good.indexOf(Buffer.from('three'));

    const flipped = Buffer.from(good);
    flipped[blobAt] = flipped[blobAt]! ^ 0x01;
    const cases: { name: string; bundle: Buffer; says: string; noAs?: boolean }[] = [
      { name: 'cut off', bundle: good.subarray(0, good.length - 60), says: 'it ends early' },
      { name: 'a flipped byte in a blob', bundle: flipped, says: 'do not match their hash' },
      {
        name: 'a record of the wrong shape',
        bundle: editBundle(good, (r) => ((snapshotsOf(r)[0]!.versions[0] as unknown as { mode: string }).mode = 'x')),
        says: 'a snapshot record has an unexpected shape',
      },
      {
        name: 'a path twice in one snapshot',
        bundle: editBundle(good, (r) => {
          const versions = snapshotsOf(r)[0]!.versions;
          versions.push({ ...versions[0]!, versionId: 99 });
        }),
        says: 'snapshot 1 lists a.txt twice',
      },
      {
        name: 'a snapshot id twice',
        bundle: editBundle(good, (r) => (snapshotsOf(r)[1]!.origin = 1)),
        says: 'snapshot 1 is listed twice',
      },
      {
        name: "a version size that is not its blob's",
        bundle: editBundle(good, (r) => {
          for (const v of snapshotsOf(r).flatMap((s) => s.versions)) if (v.path === 'src/deep/c.txt') v.size = 4;
        }),
        says: 'is 5 bytes, its versions say 4',
      },
      {
        name: 'a snapshot id beyond what a history holds',
        bundle: editBundle(good, (r) => (snapshotsOf(r)[1]!.origin = Number.MAX_SAFE_INTEGER)),
        says: `snapshot ${Number.MAX_SAFE_INTEGER} is beyond the ids a history holds`,
      },
      {
        name: 'a time beyond any calendar',
        bundle: editBundle(good, (r) => (snapshotsOf(r)[1]!.at = 9e15)),
        says: 'snapshot 2 has the time 9000000000000000',
      },
      {
        name: 'a folder mode of a snapshot it does not carry',
        bundle: editBundle(good, (r) => ((r.find((x) => x.kind === 'M')!.value as FolderModeRow[])[0]![1] = 7)),
        says: 'names snapshot 7, which it does not carry',
      },
      {
        name: 'a folder mode outside the project',
        bundle: editBundle(good, (r) => ((r.find((x) => x.kind === 'M')!.value as FolderModeRow[])[0]![0] = '../escape')),
        says: 'a folder mode names "../escape", which is not a path inside the project',
      },
      { name: 'an empty root', bundle: editBundle(good, (r) => (header(r).root = '')), says: '("") is not an absolute path', noAs: true },
      { name: 'a relative root', bundle: editBundle(good, (r) => (header(r).root = 'home/me')), says: '("home/me") is not an absolute path', noAs: true },
    ];

    // The receiving data folder knows a project already: the list must stay exactly that one.
    const dataB = tempDir('hindsight-data-');
    const known = tempDir();
    writeTree(known, { 'k.txt': 'known' });
    await cliJson(['open', known, '--data-dir', dataB]);
    const projects = await cliJson<unknown[]>(['projects', '--data-dir', dataB]);
    const files = lasting(dataB);
    for (const c of cases) {
      const file = join(dir, 'bad.hsb');
      writeFileSync(file, c.bundle);
      const moved = tempDir();
      const refused = await runCli(['import', file, ...(c.noAs ? [] : ['--as', moved]), '--data-dir', dataB], {}, { cwd: moved });
      expect(refused.code, c.name).toBe(1);
      expect(refused.stderr.trim().split('\n'), c.name).toEqual([expect.stringContaining(c.says)]);
      expect(await cliJson<unknown[]>(['projects', '--data-dir', dataB]), c.name).toEqual(projects);
      expect(lasting(dataB), c.name).toEqual(files);
    }

    // The good bundle still imports, and is the only thing added.
    const moved = tempDir();
    await cliJson(['import', join(dir, 'good.hsb'), '--as', moved, '--data-dir', dataB]);
    expect(await cliJson<unknown[]>(['projects', '--data-dir', dataB])).toHaveLength(projects.length + 1);
  });
});
