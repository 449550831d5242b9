import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import type { LineRowOut, SnapshotRowOut, VersionRowOut } from '../db/historyIndex.js';
import type { DamagedContents } from '../../../shared/contract/values.js';
import type { ProjectStore } from '../project/projectStore.js';
import { requireSnapshot } from '../db/requireSnapshot.js';
import type { TransferMeter } from '../transferMeter.js';
import { ReadAhead, type AheadForm, type ReadAheadOptions } from '../store/readAhead.js';
import { toWire } from '../remoteLayout/recordFormat.js';
import {
  blobHead,
  compressedHead,
  FORMAT_VERSION,
  jsonRecord,
  KIND,
  MAGIC,
  VERSIONS_PER_RECORD,
  type BundleHeader,
  type BundlePins,
  type BundleSnapshot,
} from './bundleFormat.js';
import { historyIdOf } from './historyId.js';

// Writes a project's history (or the part after --since) as a bundle (bundleFormat.ts), one pass:
// header, snapshot records (versions read in pages, so memory stays flat however long the
// history), folder-mode rows, the pins of what it carries, then every blob the carried versions name, once, by hash, each
// hashed as it is read (a damaged blob stops the export; the small blobs of a long list are read
// ahead on worker threads, store/readAhead.ts), then the end record with the digest
// of everything before it. The snapshots carried end at the latest one when the export began.
// A blob the store keeps compressed goes as it is kept ('Z' record), neither inflated nor
// compressed: its header is checked here, its bytes by the importer, which inflates it anyway.

const OUT_CHUNK = 1024 * 1024;

export interface ExportPlan {
  header: BundleHeader;
  since: number;
  last: number;
  blobs: { hash: string; size: number }[];
  pins: BundlePins;
  lines: LineRowOut[];
}

export function planExport(store: ProjectStore, since: number | undefined): ExportPlan {
  const { index } = store;
  const last = index.snapshotReads.lastSnapshotId() ?? 0;
  let sinceRow: BundleHeader['since'] = null;
  if (since !== undefined) {
    const snapshot = requireSnapshot(index, since);
    sinceRow = { snapshotId: since, at: snapshot.at, kind: snapshot.kind };
  }
  const from = since ?? 0;
  const snapshots = index.bundles.snapshotsBetween(from, last);
  const blobs = index.bundles.blobsBetween(from, last);
  const carried = blobs.filter((b) => !b.held).map(({ hash, size }) => ({ hash, size }));
  const requires = blobs.filter((b) => b.held).map((b): [string, number] => [b.hash, b.size]);
  const totals = index.blobRecords.historyTotals();
  const pins = index.bundles.pinsBetween(from, last);
  const lines = index.bundles.linesOut();
  const header: BundleHeader = {
    format: 'hindsight-bundle',
    version: FORMAT_VERSION,
    projectId: historyIdOf(store),
    name: basename(store.root) || store.root,
    root: store.root,
    snapshots: { first: snapshots[0]?.id ?? null, last: snapshots.at(-1)?.id ?? null, count: snapshots.length },
    since: sinceRow,
    requires,
    counts: {
      // Whole-history totals bound these from above; the end record carries the exact counts.
      versions: since === undefined ? totals.versions : countVersions(store, from, last),
      folderModes: index.bundles.folderModesBetween(from, last).length,
      pins: pins.snapshots.length + pins.versions.length,
      lines: lines.length,
      blobs: carried.length,
      bytes: carried.reduce((sum, b) => sum + b.size, 0),
    },
  };
  return { header, since: from, last, blobs: carried, pins, lines };
}

/**
 * The plan without the blobs found damaged or missing (--skip-damaged): its header names them
 * (`leftOut`), so an import takes the versions naming them as versions whose bytes are missing.
 */
export function leaveOut(plan: ExportPlan, damaged: readonly DamagedContents[]): ExportPlan {
  const out = new Set(damaged.map((d) => d.hash));
  const blobs = plan.blobs.filter((b) => !out.has(b.hash));
  const leftOut = damaged.map((d): [string, number] => [d.hash, d.size]);
  const counts = { ...plan.header.counts, blobs: blobs.length, bytes: blobs.reduce((sum, b) => sum + b.size, 0) };
  return { ...plan, blobs, header: { ...plan.header, leftOut, counts } };
}

function countVersions(store: ProjectStore, since: number, last: number): number {
  let n = 0;
  let from: [number, number] = [since, 0];
  for (;;) {
    const page = store.index.bundles.versionPage(since, last, from, VERSIONS_PER_RECORD);
    n += page.length;
    if (page.length < VERSIONS_PER_RECORD) return n;
    const end = page.at(-1)!;
    from = [end[1], end[0]];
  }
}

/** The bundle's bytes, in chunks of about 1 MiB; progress counts blob bytes. */
export async function* bundleChunks(
  store: ProjectStore,
  plan: ExportPlan,
  meter?: TransferMeter,
  signal?: AbortSignal,
  readAhead?: ReadAheadOptions,
): AsyncGenerator<Buffer> {
  const digest = createHash('sha256');
  const out = new ChunkJoiner((chunk) => digest.update(chunk));
  const counts = { snapshots: 0, versions: 0, folderModes: 0, pins: 0, lines: plan.lines.length, blobs: 0, bytes: 0 };
  meter?.enter('index', { files: plan.header.snapshots.count });
  out.push(MAGIC);
  out.push(jsonRecord(KIND.header, plan.header));
  for (const record of snapshotRecords(store, plan)) {
    out.push(jsonRecord(KIND.snapshots, record.map(toWire)));
    counts.snapshots += record.length;
    counts.versions += record.reduce((sum, s) => sum + s.versions.length, 0);
    meter?.add({ files: record.length });
    yield* out.full();
    signal?.throwIfAborted();
  }
  const modes = store.index.bundles.folderModesBetween(plan.since, plan.last);
  counts.folderModes = modes.length;
  for (let i = 0; i < modes.length; i += VERSIONS_PER_RECORD) out.push(jsonRecord(KIND.modes, modes.slice(i, i + VERSIONS_PER_RECORD)));
  for (const record of pinRecords(plan.pins)) {
    out.push(jsonRecord(KIND.pins, record));
    counts.pins += record.snapshots.length + record.versions.length;
  }
  // A few rows (one per machine whose snapshots this history holds): one record, even when empty.
  out.push(jsonRecord(KIND.lines, plan.lines));
  meter?.enter('data', { bytes: plan.header.counts.bytes, files: plan.blobs.length });
  const ahead = ReadAhead.over(store.blobs, plan.blobs, { ...readAhead, keepCompressed: true });
  try {
    for (const blob of plan.blobs) {
      signal?.throwIfAborted();
      const read = await (ahead?.takeKept(blob) ?? keptForm(store, blob));
      if (read?.form === 'compressed') {
        out.push(compressedHead(blob.hash, blob.size, read.bytes.length));
        out.push(read.bytes);
        meter?.add({ bytes: blob.size });
        yield* out.full();
      } else {
        out.push(blobHead(blob.hash, blob.size));
        for (const chunk of read ? [read.bytes] : store.blobs.pieces(blob.hash, blob.size, OUT_CHUNK)) {
          out.push(chunk);
          meter?.add({ bytes: chunk.length });
          yield* out.full();
        }
      }
      counts.blobs++;
      counts.bytes += blob.size;
      meter?.add({ files: 1 });
    }
  } finally {
    await ahead?.close();
  }
  yield* out.all();
  yield jsonRecord(KIND.end, { ...counts, sha256: digest.digest('hex') });
  meter?.finish();
}

/** A blob's compressed form as the store keeps it; undefined when it is kept raw (read through the checked chunks). */
function keptForm(store: ProjectStore, blob: { hash: string; size: number }): AheadForm | undefined {
  const kept = store.blobs.storedForm(blob.hash, blob.size);
  return kept.form === 'compressed' ? kept : undefined;
}

/** The carried snapshots with their versions, cut into records of about VERSIONS_PER_RECORD versions. */
function* snapshotRecords(store: ProjectStore, plan: ExportPlan): Generator<BundleSnapshot[]> {
  const snapshots = store.index.bundles.snapshotsBetween(plan.since, plan.last);
  let at = 0;
  let from: [number, number] = [plan.since, 0];
  let page: VersionRowOut[] = [];
  let pageAt = 0;
  const nextVersion = (): VersionRowOut | undefined => {
    if (pageAt === page.length) {
      page = store.index.bundles.versionPage(plan.since, plan.last, from, VERSIONS_PER_RECORD);
      pageAt = 0;
      if (page.length === 0) return undefined;
      const end = page.at(-1)!;
      from = [end[1], end[0]];
    }
    return page[pageAt];
  };
  let record: BundleSnapshot[] = [];
  let inRecord = 0;
  for (; at < snapshots.length; at++) {
    const snapshot = toBundleSnapshot(snapshots[at]!);
    for (let v = nextVersion(); v && v[1] === snapshot.idOnMachine; v = nextVersion()) {
      const version: BundleSnapshot['versions'][number] = { versionId: v[0], path: v[2], hash: v[3], mode: v[4], size: v[5], type: v[6], target: v[7] };
      if (v[8] !== null) version.fromVersion = v[8];
      snapshot.versions.push(version);
      pageAt++;
    }
    record.push(snapshot);
    inRecord += snapshot.versions.length + 1;
    if (inRecord >= VERSIONS_PER_RECORD) {
      yield record;
      record = [];
      inRecord = 0;
    }
  }
  if (record.length > 0) yield record;
}

/** The pins cut into records of at most VERSIONS_PER_RECORD rows (none when nothing is pinned). */
function* pinRecords(pins: BundlePins): Generator<BundlePins> {
  for (let i = 0; i < pins.snapshots.length; i += VERSIONS_PER_RECORD) yield { snapshots: pins.snapshots.slice(i, i + VERSIONS_PER_RECORD), versions: [] };
  for (let i = 0; i < pins.versions.length; i += VERSIONS_PER_RECORD) yield { snapshots: [], versions: pins.versions.slice(i, i + VERSIONS_PER_RECORD) };
}

function toBundleSnapshot(row: SnapshotRowOut): BundleSnapshot {
  const snapshot: BundleSnapshot = { idOnMachine: row.id, kind: row.kind, at: row.at, label: row.label, branch: row.branch, head: row.head, versions: [] };
  // A snapshot recorded before origins were (migration 3) has none: the importer tells it by its kind too.
  if (row.origin !== null) {
    snapshot.made = { kind: row.origin, snapshot: row.origin_snapshot, fromGit: row.from_git, gitOperation: row.git_operation, gitWhen: row.git_when };
  }
  if (row.machine !== null && row.machine_snapshot !== null) snapshot.machine = { id: row.machine, snapshot: row.machine_snapshot };
  return snapshot;
}

/** Joins small pieces into chunks of about OUT_CHUNK bytes; every byte handed out is seen by `onOut` first. */
class ChunkJoiner {
  private pieces: Buffer[] = [];
  private size = 0;

  constructor(private readonly onOut: (chunk: Buffer) => void) {}

  push(piece: Buffer): void {
    this.pieces.push(piece);
    this.size += piece.length;
  }

  *full(): Generator<Buffer> {
    if (this.size >= OUT_CHUNK) yield* this.all();
  }

  *all(): Generator<Buffer> {
    if (this.size === 0) return;
    const chunk = this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces, this.size);
    this.pieces = [];
    this.size = 0;
    this.onOut(chunk);
    yield chunk;
  }
}
