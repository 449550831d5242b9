import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, zstdCompressSync } from 'node:zlib';
import { exportBundleTo } from '../../../electron/history/bundle/bundleTransfer.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { HindsightError } from '../../../shared/errors.js';
import { blobPath, compressedBlobPath } from '../../../electron/history/store/storeLayout.js';
import { COMPRESS_UP_TO } from '../../../electron/history/codec/blobCodec.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { asFormat3, bundleRecords, editBundle, type BundleRecord } from '../../helpers/bundleRecords.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, sha256 } from '../../helpers/writeTree.js';
import { projectWithBaseline, type Project } from '../versions/versionsHelpers.js';
import { otherEngine } from './bundleHelpers.js';

// Format 4 carries a blob the store keeps compressed as it is kept ('Z' record): the export
// neither inflates nor compresses it, the import inflates it once to check it (bounded by its
// size, hashed) and keeps the very bytes that came, compressing nothing. Damage in such a record
// (a flipped byte, a cut, a bomb) is BLOB_CORRUPT naming the versions it would break, with nothing
// imported. Bundles of format 3 (every blob raw) still import, kept compressed where that pays.
// Counted with the trace counters store.compressions / store.decompressions (codec/blobCodec.ts).

const TEXT = Array.from({ length: 300 }, (_, i) => `line ${i}: the same words again and again\n`).join('');
const NOTES = Array.from({ length: 200 }, (_, i) => `note ${i} of the list, written down once more\n`).join('');
const NOISE = seededBytes(11, 30_000);
const SPEC = { 'text.txt': TEXT, 'docs/notes.md': NOTES, 'noise.bin': NOISE, 'small.txt': 'small\n' };

async function exported(project: Project, readAhead?: { blobsPerThread: number }): Promise<Buffer> {
  const file = join(tempDir(), 'history.hsb');
  await exportBundleTo(project.store, { file }, { readAhead });
  return readFileSync(file);
}

function recordsOf(bundle: Buffer, kind: string): BundleRecord[] {
  return bundleRecords(bundle).records.filter((r) => r.kind === kind);
}

/** The bundle with the compressed record of `hash` replaced by `stored` (the end digest taken again). */
function withCompressed(bundle: Buffer, hash: string, stored: Buffer): Buffer {
  return editBundle(bundle, (records) => {
    const record = records.find((r) => r.compressed?.hash === hash)!;
    record.compressed = { ...record.compressed!, stored };
  });
}

function codeOf(error: unknown): string {
  return error instanceof HindsightError ? error.code : `not a typed error: ${String(error)}`;
}

/** A store compressed form's header (magic, raw length) in front of `frame`. */
function withHeader(size: number, frame: Buffer): Buffer {
  const header = Buffer.alloc(12);
  header.write('hzst', 0, 'latin1');
  header.writeBigUInt64BE(BigInt(size), 4);
  return Buffer.concat([header, frame]);
}

describe('a bundle of a store holding compressed blobs', () => {
  it('carries them as they are kept: the export compresses and inflates nothing, the import only inflates to check, and keeps the same bytes', async () => {
    const project = await projectWithBaseline(SPEC);
    const kept = readFileSync(compressedBlobPath(project.store.blobs.dir, sha256(TEXT)));
    for (const readAhead of [undefined, { blobsPerThread: 1 }]) {
      resetTrace();
      const bundle = await exported(project, readAhead);
      expect(counter('store.compressions')).toBe(0);
      expect(counter('store.decompressions')).toBe(0);
      expect(bundle.subarray(0, 19).toString()).toBe('hindsight-bundle 4\n');
      // The two compressed blobs go as their files are; the others raw.
      expect(recordsOf(bundle, 'Z').map((r) => r.compressed!.hash)).toEqual([sha256(TEXT), sha256(NOTES)].sort());
      expect(
        recordsOf(bundle, 'Z')
          .find((r) => r.compressed!.hash === sha256(TEXT))!
          .compressed!.stored.equals(kept),
      ).toBe(true);
      expect(recordsOf(bundle, 'B').map((r) => r.blob!.hash)).toEqual([sha256(NOISE), sha256('small\n')].sort());
      expect(bundle.includes(Buffer.from(TEXT))).toBe(false);
    }
    const file = join(tempDir(), 'history.hsb');
    writeFileSync(file, await exported(project));

    const other = otherEngine();
    const as = tempDir();
    resetTrace();
    const imported = await other.importHistory({ file }, { as });
    // The compressed records: none compressed, each inflated once to check it. The one raw record
    // of a size that may be compressed (the noise, kept raw where it was made because that did not
    // pay, or because it was filed before compression) is tried, as every raw blob arriving is.
    expect(counter('store.compressions')).toBe(1);
    expect(counter('store.decompressions')).toBe(2);
    expect(imported).toMatchObject({ blobsWritten: 4, blobsPresent: 0 });
    const blobsDir = other.store(imported.projectId).blobs.dir;
    expect(readFileSync(compressedBlobPath(blobsDir, sha256(TEXT))).equals(kept)).toBe(true);
    expect(existsSync(blobPath(blobsDir, sha256(TEXT)))).toBe(false);
    expect(readFileSync(blobPath(blobsDir, sha256(NOISE))).equals(NOISE)).toBe(true);
    const out = join(tempDir(), 'out');
    await other.materializeSnapshot(imported.projectId, other.log(imported.projectId).at(-1)!.snapshotId, out);
    expect(readFileSync(join(out, 'text.txt'), 'utf8')).toBe(TEXT);
    expect(readFileSync(join(out, 'docs/notes.md'), 'utf8')).toBe(NOTES);
    expect(readFileSync(join(out, 'noise.bin')).equals(NOISE)).toBe(true);

    resetTrace();
    const again = await other.importHistory({ file }, { as });
    expect(again).toMatchObject({ added: 0, blobsWritten: 0, blobsPresent: 4 });
    expect(counter('store.compressions')).toBe(0);
    expect((await other.verify(imported.projectId)).ok).toBe(true);
  });

  it('still imports a bundle of format 3 (every blob raw), keeping compressed what pays', async () => {
    const project = await projectWithBaseline(SPEC);
    const old = asFormat3(await exported(project));
    expect(old.subarray(0, 19).toString()).toBe('hindsight-bundle 3\n');
    expect(recordsOf(old, 'Z')).toEqual([]);
    expect(old.includes(Buffer.from(TEXT))).toBe(true);
    const file = join(tempDir(), 'old.hsb');
    writeFileSync(file, old);

    const other = otherEngine();
    resetTrace();
    const imported = await other.importHistory({ file }, { as: tempDir() });
    expect(imported).toMatchObject({ blobsWritten: 4 });
    // Every raw record of a size that may be compressed is tried (the two texts and the noise); the texts are kept compressed.
    expect(counter('store.compressions')).toBe(3);
    const blobsDir = other.store(imported.projectId).blobs.dir;
    expect(existsSync(compressedBlobPath(blobsDir, sha256(TEXT)))).toBe(true);
    const out = join(tempDir(), 'out');
    await other.materializeSnapshot(imported.projectId, other.log(imported.projectId).at(-1)!.snapshotId, out);
    expect(readFileSync(join(out, 'text.txt'), 'utf8')).toBe(TEXT);
    expect((await other.verify(imported.projectId)).ok).toBe(true);
  });

  it('refuses a damaged compressed record (flipped, cut, a bomb, a lying header, too long) with BLOB_CORRUPT naming the versions, importing nothing', async () => {
    const project = await projectWithBaseline(SPEC);
    const good = await exported(project);
    const hash = sha256(TEXT);
    const stored = recordsOf(good, 'Z').find((r) => r.compressed!.hash === hash)!.compressed!.stored;
    const flipped = Buffer.from(stored);
    flipped[flipped.length - 20]! ^= 0x10;
    // 64 MiB of zeros behind a header recording the blob's own size: refused once past that size.
    const bomb = withHeader(TEXT.length, zstdCompressSync(Buffer.alloc(64 * 1024 * 1024), { params: { [constants.ZSTD_c_compressionLevel]: 19 } }));
    const cases: { name: string; stored: Buffer; says: string | RegExp }[] = [
      { name: 'a flipped byte', stored: flipped, says: '' },
      // Node 22's zstd gives a cut frame's bytes back short (none here); Node 24's says the frame ends early.
      { name: 'a cut', stored: stored.subarray(0, stored.length - 30), says: /inflates to 0 bytes|does not decompress \(unexpected end of file\)/ },
      { name: 'a bomb', stored: bomb, says: `inflates past its recorded ${TEXT.length} bytes` },
      { name: 'a header recording another size', stored: withHeader(TEXT.length + 1, stored.subarray(12)), says: `records ${TEXT.length + 1} bytes` },
      {
        name: 'a form longer than any compressed blob',
        stored: Buffer.concat([stored, Buffer.alloc(COMPRESS_UP_TO)]),
        says: 'more than a compressed blob takes',
      },
      { name: "another blob's form", stored: recordsOf(good, 'Z').find((r) => r.compressed!.hash !== hash)!.compressed!.stored, says: '' },
    ];
    const versionId = project.engine.versions(project.projectId, 'text.txt')[0]!.versionId;
    for (const { name, stored: bad, says } of cases) {
      const file = join(tempDir(), 'damaged.hsb');
      writeFileSync(file, withCompressed(good, hash, bad));
      const dataDir = tempDir('hindsight-data-');
      const other = new HistoryEngine(dataDir);
      try {
        const refused = await other.importHistory({ file }, { as: tempDir() }).catch((error: unknown) => error);
        expect(codeOf(refused), name).toBe('BLOB_CORRUPT');
        const message = (refused as Error).message;
        expect(message, name).toContain(`text.txt (version ${versionId})`);
        expect(message, name).toMatch(says);
        expect(await other.listProjects(), name).toEqual([]);
        expect(existsSync(join(dataDir, 'projects')) ? readdirSync(join(dataDir, 'projects')) : [], name).toEqual([]);
      } finally {
        other.close();
      }
    }
  });

  it('stops an export at a compressed blob whose header is damaged; damage inside its frame is refused by the import', async () => {
    const project = await projectWithBaseline(SPEC);
    const file = compressedBlobPath(project.store.blobs.dir, sha256(TEXT));
    const kept = readFileSync(file);
    const badHeader = Buffer.from(kept);
    badHeader.write('xxxx', 0, 'latin1');
    writeFileSync(file, badHeader);
    const stopped = await exported(project).catch((error: unknown) => error);
    expect(codeOf(stopped)).toBe('BLOB_CORRUPT');
    expect((stopped as Error).message).toContain('no valid header');

    // Found damaged, the blob is marked: the next export refuses before writing a byte.
    const badFrame = Buffer.from(kept);
    badFrame[badFrame.length - 20]! ^= 0x10;
    writeFileSync(file, badFrame);
    const known = await exported(project).catch((error: unknown) => error);
    expect(codeOf(known)).toBe('BLOB_CORRUPT');
    expect((known as Error).message).toContain('No bundle was written');

    // Damage not known yet: the export reads no frame (nothing is inflated); the importer, which inflates every form it takes, refuses it.
    project.store.index.damage.clearDamaged([sha256(TEXT)]);
    const bundle = join(tempDir(), 'history.hsb');
    writeFileSync(bundle, await exported(project));
    const refused = await otherEngine()
      .importHistory({ file: bundle }, { as: tempDir() })
      .catch((error: unknown) => error);
    expect(codeOf(refused)).toBe('BLOB_CORRUPT');
    expect((refused as Error).message).toContain('text.txt (version');
  });

  it('rewrites a damaged compressed blob from a bundle that carries it compressed, the same bytes as before the damage', async () => {
    const project = await projectWithBaseline(SPEC);
    const { engine, projectId, store, root } = project;
    const file = compressedBlobPath(store.blobs.dir, sha256(TEXT));
    const kept = readFileSync(file);
    const bundle = join(tempDir(), 'history.hsb');
    writeFileSync(bundle, await exported(project));
    const damaged = Buffer.from(kept);
    damaged[damaged.length - 20]! ^= 0x10;
    writeFileSync(file, damaged);
    expect((await engine.verify(projectId)).corrupt.map((p) => p.hash)).toEqual([sha256(TEXT)]);
    // The file is gone from the folder: the bundle is the only place its bytes are.
    writeFileSync(join(root, 'text.txt'), 'other words\n');

    resetTrace();
    const imported = await engine.importHistory({ file: bundle });
    expect(imported.blobsWritten).toBe(1);
    expect(counter('store.compressions')).toBe(0);
    expect(readFileSync(file).equals(kept)).toBe(true);
    expect(store.index.damage.damagedHashes()).toEqual([]);
    expect((await engine.verify(projectId)).ok).toBe(true);
  });

  it('refuses a compressed record in a bundle of format 3', async () => {
    const project = await projectWithBaseline(SPEC);
    const good = await exported(project);
    const file = join(tempDir(), 'mixed.hsb');
    // The first line and header say 3, the records are format 4's.
    writeFileSync(
      file,
      editBundle(Buffer.concat([Buffer.from('hindsight-bundle 3\n'), good.subarray(19)]), (records) => {
        (records.find((r) => r.kind === 'H')!.value as { version: number }).version = 3;
      }),
    );
    const refused = await otherEngine()
      .importHistory({ file }, { as: tempDir() })
      .catch((error: unknown) => error);
    expect(codeOf(refused)).toBe('BUNDLE_CORRUPT');
    expect((refused as Error).message).toContain('an unknown record follows the blobs');
  });
});
