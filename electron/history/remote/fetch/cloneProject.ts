import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { HindsightError } from '../../../../shared/errors.js';
import type { FileEntry } from '../../../../shared/history.js';
import type { RemoteConfig } from '../../config/configSchema.js';
import type { ProgressSink } from '../../progressThrottle.js';
import type { ProjectStore } from '../../project/projectStore.js';
import { localBlobSource, materializeSnapshot } from '../../restore/materializeSnapshot.js';
import { foreignFiles } from '../../restore/specialModes.js';
import { assertNoNameCollisions } from '../../restore/nameCollisions.js';
import type { RecordedVersion } from '../../remoteLayout/recordFormat.js';
import { machineIdentity } from '../machineIdentity.js';
import type { BlobLocation } from '../../db/remoteLedger.js';
import { openRemoteStore, remoteIdentity } from '../remoteConfig.js';
import { setRemoteOrigin } from '../remoteProject.js';
import { TransferMeter } from '../../transferMeter.js';
import { fetchBlobs } from './fetchBlobs.js';
import { planFetch } from './fetchPlan.js';
import { chooseSnapshot, lineTo, readRemoteHistory, type RemoteSnapshotRef } from './readRemoteHistory.js';
import { checkLocatedSizes, foreignSnapshotWrite } from './machineSnapshots.js';
import { missingBlobs, storeSink } from './storeSink.js';

// `hindsight clone`: a remote project's history into a new, empty folder of this machine. The
// metadata first (heads, indexes, records: no blob bytes), then the blobs of the chosen snapshot's
// files (range GETs, each blob checked against its hash before it is stored), then the files
// (restore/materializeSnapshot.ts, in place: the folder keeps its identity), then the snapshots
// leading to it, in one transaction, each marked with the machine and id it has there. Older
// versions' bytes stay on the remote until first needed (bytesOnDemand.ts): the ledger locates
// every blob of every machine.

export interface CloneOptions {
  credentials?: S3ClientConfig['credentials'];
  snapshot?: string;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  /** Keep setuid/setgid/sticky bits of the files written (off: dropped, as from any other history). */
  keepSpecialModes?: boolean;
}

export interface CloneResult {
  projectId: string;
  remoteProjectId: string;
  root: string;
  /** The snapshot materialized: its machine and its id there. */
  from: RemoteSnapshotRef;
  snapshots: number;
  files: number;
  bytes: number;
  /** Requests made to fetch the files' bytes. */
  fetches: number;
  /** Files written without the setuid/setgid/sticky bits the remote recorded (keepSpecialModes keeps them). */
  specialModesDropped: number;
  ms: number;
}

export async function cloneProject(
  dataDir: string,
  store: ProjectStore,
  remote: RemoteConfig,
  remoteProjectId: string,
  options: CloneOptions = {},
): Promise<CloneResult> {
  const started = performance.now();
  const { signal } = options;
  if (store.index.snapshotReads.latestSnapshotId() !== undefined) {
    throw new HindsightError('FOLDER_NOT_EMPTY', `${store.root} already has a history; clone into a new, empty folder.`, { root: store.root });
  }
  const machine = machineIdentity(dataDir);
  const meter = new TransferMeter('clone', store.projectId, options.onProgress);
  const objects = await openRemoteStore(remote, { credentials: options.credentials, onRetry: (notice) => meter.retrying(notice) });
  try {
    meter.enter('metadata', { objects: 1 });
    const history = await readRemoteHistory(objects, remoteProjectId, meter, signal);
    if (history.lines.has(machine.id)) {
      throw new HindsightError(
        'REMOTE_FAILED',
        `This data folder already pushes project ${remoteProjectId} to ${objects.label}; clone it with another --data-dir (each data folder is one machine).`,
        { projectId: remoteProjectId },
      );
    }
    const from = chooseSnapshot(history, options.snapshot);
    const line = lineTo(history, from);
    const files = filesAt(line.map((l) => l.snapshot.versions));
    // Before a byte is fetched or a file written: names that would land on one file in this folder.
    assertNoNameCollisions(
      files.map((f) => f.path),
      store.root,
      `The remote's snapshot ${from.origin} of machine ${from.machine}`,
    );

    // Every blob of every machine, located: bytes of old versions come from here when needed.
    const ledger = store.index.remotes.remoteLedger(remoteIdentity(remote), { projectId: remoteProjectId, machineId: machine.id });
    for (const { machineId, key, index } of history.indexes) ledger.noteForeignIndex(machineId, key, index);
    for (const { machineId, etag, head } of history.lines.values()) ledger.noteForeignHead(machineId, etag, head);

    const needed = missingBlobs(
      store.blobs,
      files.filter((f) => f.hash !== null).map((f) => f.hash!),
    );
    const located: [string, BlobLocation][] = needed.map((hash) => {
      const location = ledger.locate(hash);
      if (!location) throw new HindsightError('REMOTE_CORRUPT', `The remote names the contents ${hash.slice(0, 12)}… but no index locates them.`, { hash });
      return [hash, location];
    });
    checkLocatedSizes(
      line.map((l) => l.snapshot),
      located,
    );
    const plan = planFetch(located);
    const bytes = files.reduce((sum, f) => sum + (f.hash ? f.size : 0), 0);
    meter.enter('fetch', { bytes: located.reduce((sum, [, l]) => sum + ('alone' in l ? l.size : l.entry[3]), 0), objects: plan.length, files: needed.length });
    await fetchBlobs(objects, remoteProjectId, plan, storeSink(store.blobs), meter, signal);

    // The files, as any snapshot is written into a folder of its own, the bytes all in the store
    // by now; in place, since the folder is registered by its identity (a rename would change it).
    const written = foreignFiles(files.map(fileEntry), options.keepSpecialModes === true);
    const contents = { projectId: store.projectId, snapshotId: from.origin, files: written.files, folderModeOf: () => undefined };
    await materializeSnapshot(contents, store.root, localBlobSource(store.blobs), { signal, meter, inPlace: true });

    const writes = line.map(({ machine: machineId, snapshot }) => foreignSnapshotWrite(machineId, snapshot));
    store.index.importSnapshots(writes);
    setRemoteOrigin(store, remoteProjectId, from);
    // This folder's line starts at the snapshot it materialized: its state follows that line.
    store.index.remotes.setLineFork(null, from, machine.id);
    store.index.setMeta('remote.clonedFrom', remote.name);
    meter.finish();
    return {
      projectId: store.projectId,
      remoteProjectId,
      root: store.root,
      from,
      snapshots: writes.length,
      files: files.length,
      bytes,
      fetches: plan.length,
      specialModesDropped: written.dropped,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    objects.close();
  }
}

/** The files present after a line of snapshots: the newest version of each path, deletions dropped, sorted by path. */
function filesAt(line: RecordedVersion[][]): RecordedVersion[] {
  const latest = new Map<string, RecordedVersion>();
  for (const versions of line) for (const version of versions) latest.set(version.path, version);
  return [...latest.values()].filter((v) => v.hash !== null).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function fileEntry(version: RecordedVersion): FileEntry {
  const entry: FileEntry = { path: version.path, type: version.type ?? 'file', hash: version.hash!, mode: version.mode, size: version.size };
  if (version.target !== null) entry.target = version.target;
  return entry;
}
