import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HindsightError } from '../../../shared/errors.js';
import type { ExportResult, ImportResult } from '../../../shared/contract/values.js';
import { fsError } from '../fsErrors.js';
import type { OpenProject } from '../registry/openProject.js';
import type { ProjectStore } from '../project/projectStore.js';
import type { WriterWait } from '../project/writerLock.js';
import type { ProgressSink } from '../progressThrottle.js';
import { TransferMeter } from '../transferMeter.js';
import { ByteReader } from './byteReader.js';
import type { ReadAheadOptions } from '../store/readAhead.js';
import { damagedAmong, exportRefused, isBlobDamage } from './damagedContents.js';
import { bundleChunks, leaveOut, planExport, type ExportPlan } from './exportBundle.js';
import { historyIdOf } from './historyId.js';
import { applyBundle } from './importBundle.js';
import { readHeader, readRows } from './readBundle.js';
import { collidingIncomingNames, incomingPaths } from './incomingNames.js';
import { unwritableNames } from '../restore/windowsSkips.js';
import { faultPoint } from '../faultPoint.js';

// Where a bundle goes to and comes from: a file (written to a temp beside it and renamed when
// complete, so a file under the name asked for is always a whole bundle) or a stream (stdout, a
// download, stdin, an upload). The engine's exportHistory and importHistory are these.

export type BundleTarget = { file: string } | { stream: Writable };
export type BundleSource = { file: string } | { stream: AsyncIterable<Buffer | string> };

const READ_CHUNK = 1024 * 1024;

export async function exportBundleTo(
  store: ProjectStore,
  to: BundleTarget,
  options: { since?: number; skipDamaged?: boolean; signal?: AbortSignal; onProgress?: ProgressSink; readAhead?: ReadAheadOptions },
): Promise<ExportResult> {
  const started = performance.now();
  const planned = planExport(store, options.since);
  // Damage known before a byte is written refuses the export, every blob then read to name each one;
  // asked to skip it, every blob is read first and what is damaged left out.
  const damaged = damagedAmong(store, planned.blobs, options.skipDamaged === true);
  if (damaged.length > 0 && options.skipDamaged !== true) throw exportRefused(damagedAmong(store, planned.blobs, true), 'none');
  const plan = damaged.length > 0 ? leaveOut(planned, damaged) : planned;
  const meter = new TransferMeter('export', store.projectId, options.onProgress);
  let size = 0;
  const counted = async function* () {
    for await (const chunk of bundleChunks(store, plan, meter, options.signal, options.readAhead)) {
      size += chunk.length;
      yield chunk;
    }
  };
  let file: string | null = null;
  if ('file' in to) {
    file = resolve(to.file);
    const temp = join(dirname(file), `.${basename(file)}.hindsight-${randomUUID()}`);
    try {
      await pipeline(Readable.from(counted()), createWriteStream(temp, { flags: 'wx', mode: 0o600 }), { signal: options.signal });
      renameSync(temp, file);
    } catch (error) {
      rmSync(temp, { force: true });
      throw cancelledOr(error, options.signal, 'The export was cancelled; no bundle was written.', () =>
        damageFound(store, plan, error, 'none', () => fsError('write the bundle', file!, error)),
      );
    }
  } else {
    try {
      await pipeline(Readable.from(counted()), to.stream, { end: false, signal: options.signal });
    } catch (error) {
      throw cancelledOr(error, options.signal, 'The export was cancelled; the bundle sent so far is incomplete and will be refused.', () =>
        damageFound(store, plan, error, 'cut', () => error),
      );
    }
  }
  const { header } = plan;
  return {
    projectId: store.projectId,
    to: file,
    since: header.since?.snapshotId ?? null,
    first: header.snapshots.first,
    last: header.snapshots.last,
    snapshots: header.snapshots.count,
    requires: header.requires.length,
    blobs: header.counts.blobs,
    bytes: header.counts.bytes,
    size,
    ms: Math.round(performance.now() - started),
    leftOut: damaged,
  };
}

/**
 * Damage a reader found while the bundle was being written (not marked before): every blob of the
 * plan is then read whole, so the refusal names each damaged one, not only the first; the reader's
 * own error (which says why) when it was the only one.
 */
function damageFound(store: ProjectStore, plan: ExportPlan, error: unknown, written: 'none' | 'cut', otherwise: () => unknown): unknown {
  if (!isBlobDamage(error)) return otherwise();
  const found = damagedAmong(store, plan.blobs, true);
  return found.length > 1 ? exportRefused(found, written) : error;
}

export interface ImportTarget {
  /** The projectId of a folder that exists; nothing is registered. */
  locate: (root: string) => string;
  /** The project record of a folder (registered, store open): called once the bundle's rows are read and checked. */
  project: (root: string) => Promise<OpenProject>;
  /** Attach to this folder instead of the one the bundle was recorded at. */
  as?: string;
  background?: boolean;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  wait?: WriterWait;
  /** Told the incoming names the folder cannot hold apart (or at all) before anything is written. */
  onIncomingNames?: IncomingNamesSink;
}

/** Where an import tells its folder's colliding and unwritable names, and the folder (`root`, resolved). */
export type IncomingNamesSink = (names: Pick<ImportResult, 'collidingNames' | 'unwritableNames'>, root: string) => void;

export async function importBundleFrom(from: BundleSource, target: ImportTarget): Promise<ImportResult> {
  const started = performance.now();
  const stream = 'file' in from ? openBundle(from.file) : from.stream;
  const reader = new ByteReader(stream);
  try {
    const header = await readHeader(reader);
    const root = target.as ?? header.root;
    const meter = new TransferMeter('import', target.locate(root), target.onProgress);
    // Everything before the blobs is read and checked before the folder is registered.
    const rows = await readRows(reader, header, { meter, signal: target.signal });
    const collidingNames = collidingIncomingNames(rows.snapshots, resolve(root));
    const unwritable = unwritableNames(incomingPaths(rows.snapshots), resolve(root));
    // Told before the folder is registered, so a user who stops the import has seen them.
    target.onIncomingNames?.({ collidingNames, unwritableNames: unwritable }, resolve(root));
    faultPoint('import-registering');
    const project = await target.project(root);
    const outcome = await project.serial(
      () => applyBundle(project.store, reader, header, rows, { background: target.background, meter, signal: target.signal }),
      target.wait,
    );
    return {
      projectId: project.projectId,
      root: project.root,
      historyId: historyIdOf(project.store),
      snapshots: outcome.snapshots,
      added: outcome.added.length,
      first: header.snapshots.first,
      last: header.snapshots.last,
      blobsWritten: outcome.blobsWritten,
      blobsPresent: outcome.blobsPresent,
      bytes: outcome.bytes,
      collidingNames,
      unwritableNames: unwritable,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    await reader.close();
  }
}

function openBundle(file: string): AsyncIterable<Buffer> {
  const stream = createReadStream(file, { highWaterMark: READ_CHUNK });
  // Opening fails on the first read: say which file and why, in the engine's words.
  return (async function* () {
    try {
      for await (const chunk of stream) yield chunk as Buffer;
    } catch (error) {
      throw fsError('read the bundle', file, error);
    }
  })();
}

function cancelledOr(error: unknown, signal: AbortSignal | undefined, message: string, otherwise: () => unknown): unknown {
  if (signal?.aborted) return new HindsightError('CANCELLED', message);
  return otherwise();
}
