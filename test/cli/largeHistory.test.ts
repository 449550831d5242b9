import { beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileEntry, SnapshotInfo, VersionInfo } from '../../shared/history.js';
import type { ImportResult } from '../../shared/contract/values.js';
import { cliJson, runCli, withoutVersionNote, type CliResult } from '../helpers/runCli.js';
import { fileTempDir } from '../helpers/tempDirs.js';
import { contentAfter, LONG_HISTORY_FILE, recordLongHistory } from '../helpers/longHistory.js';
import { sha256 } from '../helpers/writeTree.js';
import { BLOB_HEAD, COMPRESSED_HEAD, jsonRecord, KIND, MAGIC } from '../../electron/history/bundle/bundleFormat.js';
import { appendAll } from '../../shared/largeArrays.js';

// Histories past what a call's arguments can carry (about 125,000 values overflow the stack):
// a 130,000-file folder and a 130,000-snapshot history, each made once for its tests, listed,
// logged, planned for a prune in text and JSON, and carried through a bundle.

const MANY = 130_000;

/** stdout of a run that succeeded with nothing on stderr but `log PATH`'s note on version numbers. */
function ok(result: CliResult): string {
  expect([result.code, withoutVersionNote(result.stderr)]).toEqual([0, '']);
  return result.stdout.toString('utf8');
}

/**
 * The same bundle with every snapshot in one record (the exporter cuts them at about 20,000
 * versions; a reader must not rely on it) and the end record's digest made again.
 */
function oneSnapshotRecord(bundle: Buffer): Buffer {
  const head: Buffer[] = [MAGIC];
  const rest: Buffer[] = [];
  const snapshots: unknown[] = [];
  let end: object = {};
  let at = MAGIC.length;
  while (at < bundle.length) {
    const kind = bundle[at]!;
    const length =
      kind === KIND.blob
        ? BLOB_HEAD + Number(bundle.readBigUInt64BE(at + 33))
        : kind === KIND.compressed
          ? COMPRESSED_HEAD + bundle.readUInt32BE(at + BLOB_HEAD)
          : 5 + bundle.readUInt32BE(at + 1);
    const record = bundle.subarray(at, at + length);
    const json = () => JSON.parse(record.subarray(5).toString('utf8'));
    if (kind === KIND.header) head.push(record);
    else if (kind === KIND.snapshots) appendAll(snapshots, json() as unknown[]);
    else if (kind === KIND.end) end = json() as object;
    else rest.push(record);
    at += length;
  }
  const body = Buffer.concat([...head, jsonRecord(KIND.snapshots, snapshots), ...rest]);
  return Buffer.concat([body, jsonRecord(KIND.end, { ...end, sha256: sha256(body) })]);
}

function lineCount(text: string): number {
  return text.trimEnd().split('\n').length;
}

describe('a 130,000-file folder', () => {
  const data = () => ['--data-dir', dataDir];
  let root = '';
  let dataDir = '';

  beforeAll(async () => {
    root = fileTempDir();
    dataDir = fileTempDir('hindsight-data-');
    // A few hundred folders of one-line files with the same bytes: 130,000 rows, one blob, so
    // the copy writes (and the cleanup removes) the folder's files and little else.
    for (let d = 0; d < MANY / 500; d++) {
      mkdirSync(join(root, `d${d}`));
      for (let f = 0; f < 500; f++) writeFileSync(join(root, `d${d}`, `f${f}.txt`), 'same\n');
    }
    expect(await cliJson(['open', root, ...data()])).toMatchObject({ firstCopy: true, files: MANY });
  }, 300_000);

  it('files lists every file, in text and in JSON', async () => {
    expect(lineCount(ok(await runCli(['files', root, ...data()])))).toBe(MANY + 1);
    expect(await cliJson<FileEntry[]>(['files', root, ...data()])).toHaveLength(MANY);
  });

  it('log, log PATH and prune --dry-run answer in text and JSON', async () => {
    expect(ok(await runCli(['log', root, ...data()]))).toContain(String(MANY));
    expect(await cliJson<SnapshotInfo[]>(['log', root, ...data()])).toEqual([expect.objectContaining({ kind: 'baseline', files: MANY })]);
    expect(ok(await runCli(['log', root, 'd259/f499.txt', ...data()]))).toContain('First copy');
    expect(ok(await runCli(['prune', root, '--dry-run', ...data()]))).toContain('Would remove 0 snapshots');
  });
});

describe('a 130,000-snapshot history', () => {
  const data = () => ['--data-dir', dataDir];
  let root = '';
  let dataDir = '';

  beforeAll(async () => {
    root = fileTempDir();
    dataDir = fileTempDir('hindsight-data-');
    await recordLongHistory(root, dataDir, MANY);
  }, 300_000);

  it('log lists every snapshot, in text and in JSON', async () => {
    expect(lineCount(ok(await runCli(['log', root, ...data()])))).toBe(MANY + 2);
    const log = await cliJson<SnapshotInfo[]>(['log', root, ...data()]);
    expect(log).toHaveLength(MANY + 1);
  });

  it("log PATH lists the file's every version, in text and in JSON", async () => {
    expect(lineCount(ok(await runCli(['log', root, LONG_HISTORY_FILE, ...data()])))).toBe(MANY + 2);
    const versions = await cliJson<VersionInfo[]>(['log', root, LONG_HISTORY_FILE, ...data()]);
    expect(versions).toHaveLength(MANY + 1);
  });

  it('prune --dry-run plans and shows every snapshot it looked at', async () => {
    const text = ok(await runCli(['prune', root, '--dry-run', ...data()]));
    expect(text).toMatch(/Would remove [\d,]+ snapshots/);
    expect(lineCount(text)).toBeGreaterThan(MANY);
  });

  it('travels through export and import into another folder', async () => {
    const bundle = join(fileTempDir(), 'long.hsb');
    ok(await runCli(['export', root, '--to', bundle, ...data()]));
    const other = fileTempDir();
    const otherData = ['--data-dir', fileTempDir('hindsight-data-')];
    const imported = await cliJson<ImportResult>(['import', bundle, '--as', other, ...otherData]);
    expect(imported).toMatchObject({ root: other, snapshots: MANY + 1, added: MANY + 1 });
    expect(await cliJson<VersionInfo[]>(['log', other, LONG_HISTORY_FILE, ...otherData])).toHaveLength(MANY + 1);
    const shown = await runCli(['show', other, LONG_HISTORY_FILE, ...otherData]);
    expect(ok(shown)).toBe(contentAfter(MANY));

    const oneRecord = join(fileTempDir(), 'one-record.hsb');
    writeFileSync(oneRecord, oneSnapshotRecord(readFileSync(bundle)));
    const third = fileTempDir();
    const again = await cliJson<ImportResult>(['import', oneRecord, '--as', third, '--data-dir', fileTempDir('hindsight-data-')]);
    expect(again).toMatchObject({ root: third, snapshots: MANY + 1, added: MANY + 1 });
  });
});
