import type * as z from 'zod';
import { HindsightError } from '../../../shared/errors.js';
import { appendAll } from '../../../shared/largeArrays.js';
import type { TransferMeter } from '../transferMeter.js';
import {
  bundleCorrupt,
  endSchema,
  FORMAT_NAME,
  FORMAT_VERSION,
  headerSchema,
  pinsRecordSchema,
  linesRecordSchema,
  READABLE_VERSIONS,
  KIND,
  MAX_JSON_RECORD,
  modesRecordSchema,
  snapshotsRecordSchema,
  type BundleHeader,
  type BundleLine,
  type BundlePins,
  type BundleSnapshot,
} from './bundleFormat.js';
import type { ByteReader } from './byteReader.js';
import { checkBundleHeader, checkBundleRows } from './bundleChecks.js';

// Reading a bundle's records other than its blobs: the first line and the header, the index rows
// (checked against each other before anything is registered or written), and the end record,
// whose counts and digest must match what was read before the rows are committed.

/** The first line and the header record. */
export async function readHeader(reader: ByteReader): Promise<BundleHeader> {
  const name = `${FORMAT_NAME} `;
  const first = await reader.read(name.length, 'its first line').catch((error: unknown) => {
    throw error instanceof HindsightError && error.code === 'BUNDLE_CORRUPT'
      ? bundleCorrupt('it is not a Hindsight bundle (it is shorter than a first line)')
      : error;
  });
  if (first.toString('latin1') !== name) throw bundleCorrupt('it is not a Hindsight bundle (its first line does not name the format)');
  let digits = '';
  for (;;) {
    const byte = (await reader.read(1, 'its first line'))[0]!;
    if (byte === 0x0a) break;
    if (byte < 0x30 || byte > 0x39 || digits.length >= 9) throw bundleCorrupt('its format version is not a number');
    digits += String.fromCharCode(byte);
  }
  const version = Number(digits);
  if (!READABLE_VERSIONS.includes(version)) {
    throw new HindsightError(
      'BUNDLE_VERSION',
      `The bundle has format version ${version}; this Hindsight reads format versions up to ${FORMAT_VERSION}${version > FORMAT_VERSION ? ' (it was made by a newer Hindsight: update to import it)' : ''}. Nothing was imported.`,
      { version, supported: FORMAT_VERSION },
    );
  }
  if ((await reader.peek()) !== KIND.header) throw bundleCorrupt('it has no header');
  const header = await readJson(reader, KIND.header, headerSchema, 'the header');
  if (header.version !== version) throw bundleCorrupt(`its header says format version ${header.version}, its first line ${version}`);
  checkBundleHeader(header);
  return header;
}

/**
 * The index rows, read before anything is registered or written (they come before the blobs),
 * and checked against each other (bundleChecks.ts): answers them with the size each hash they
 * name must have.
 */
export async function readRows(reader: ByteReader, header: BundleHeader, options: { meter?: TransferMeter; signal?: AbortSignal } = {}): Promise<CheckedRows> {
  const { meter, signal } = options;
  meter?.enter('index', { files: header.snapshots.count });
  const snapshots: BundleSnapshot[] = [];
  const folderModes: [string, number, number][] = [];
  // Format 1 carried no pins: null asks the import to pin the checkpoints a person made.
  const pins: BundlePins | null = header.version === 1 ? null : { snapshots: [], versions: [] };
  // Format 3 carries the lines of history; before it everything lands on this machine's line.
  const lines: BundleLine[] | null = header.version >= 3 ? [] : null;
  const rowKinds: number[] = [KIND.snapshots, KIND.modes, ...(pins ? [KIND.pins] : []), ...(lines ? [KIND.lines] : [])];
  for (let kind = await reader.peek(); kind !== undefined && rowKinds.includes(kind); kind = await reader.peek()) {
    signal?.throwIfAborted();
    if (kind === KIND.snapshots) {
      const record = await readJson(reader, KIND.snapshots, snapshotsRecordSchema, 'a snapshot record');
      appendAll(snapshots, record);
      meter?.add({ files: record.length });
    } else if (kind === KIND.modes) {
      appendAll(folderModes, await readJson(reader, KIND.modes, modesRecordSchema, 'a folder-mode record'));
    } else if (kind === KIND.lines) {
      appendAll(lines!, await readJson(reader, KIND.lines, linesRecordSchema, 'the lines record'));
    } else {
      const record = await readJson(reader, KIND.pins, pinsRecordSchema, 'a pin record');
      appendAll(pins!.snapshots, record.snapshots);
      appendAll(pins!.versions, record.versions);
    }
  }
  const rows = { snapshots, folderModes, pins, lines };
  return { ...rows, sizes: checkBundleRows(header, rows) };
}

/** Rows read and checked, with the size each hash they name must have. */
export interface CheckedRows {
  snapshots: BundleSnapshot[];
  folderModes: [string, number, number][];
  pins: BundlePins | null;
  /** Null before format 3: everything lands on this machine's line. */
  lines: BundleLine[] | null;
  sizes: ReadonlyMap<string, number>;
}

/**
 * The end record after the blobs: the stream ends with it, its digest is that of every byte
 * before it, and its counts are those of the rows and of the blob records taken (`carried`).
 */
export async function readEndRecord(reader: ByteReader, rows: CheckedRows, carried: { blobs: number; bytes: number }): Promise<void> {
  const { snapshots, folderModes, pins, lines } = rows;
  const before = reader.digestSoFar();
  if ((await reader.peek()) !== KIND.end)
    throw bundleCorrupt((await reader.atEnd()) ? 'it ends early, before its end record' : 'an unknown record follows the blobs');
  const end = await readJson(reader, KIND.end, endSchema, 'the end record');
  if (!(await reader.atEnd())) throw bundleCorrupt('bytes follow its end record');
  const versions = snapshots.reduce((sum, s) => sum + s.versions.length, 0);
  if (end.sha256 !== before) throw bundleCorrupt('its digest does not match its bytes');
  const pinCount = pins ? pins.snapshots.length + pins.versions.length : undefined;
  const counted = end.snapshots === snapshots.length && end.versions === versions && end.blobs === carried.blobs && end.bytes === carried.bytes;
  if (!counted || end.folderModes !== folderModes.length || end.pins !== pinCount || end.lines !== lines?.length) {
    throw bundleCorrupt('its end record does not count what it carried');
  }
}

async function readJson<T>(reader: ByteReader, kind: number, schema: z.ZodType<T>, what: string): Promise<T> {
  const head = await reader.read(5, what);
  if (head[0] !== kind) throw bundleCorrupt(`${what} is missing`);
  const length = head.readUInt32BE(1);
  if (length > MAX_JSON_RECORD) throw bundleCorrupt(`${what} is longer than any bundle writes`);
  const text = await reader.read(length, what);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.toString('utf8'));
  } catch {
    throw bundleCorrupt(`${what} is not JSON`);
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw bundleCorrupt(`${what} has an unexpected shape (${result.error.issues[0]?.message ?? 'unknown'})`);
  return result.data;
}
