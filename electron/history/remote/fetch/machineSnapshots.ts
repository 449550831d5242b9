import { HindsightError } from '../../../../shared/errors.js';
import { firstProblem, sizeProblem, snapshotsProblem } from '../../remoteLayout/recordChecks.js';
import type { RecordedSnapshot, RecordedVersion } from '../../remoteLayout/recordFormat.js';
import type { SnapshotWrite } from '../../db/commitSnapshot.js';
import type { BlobLocation } from '../../db/remoteLedger.js';

// One machine's snapshots as its records on a remote list them, checked before any is written
// (layout/recordChecks.ts). A push killed after writing its record and run again writes a second
// record with the same snapshots: a snapshot repeated exactly is kept once; one id given to two
// different snapshots is damage. Where the remote's indexes give a blob's size, its versions
// must agree.

/**
 * Each version's size against the size the remote's indexes give its contents, for the contents
 * `located` (a clone's needed blobs, a pull's new versions); REMOTE_CORRUPT naming the first.
 */
export function checkLocatedSizes(snapshots: readonly RecordedSnapshot[], located: Iterable<[hash: string, location: BlobLocation]>): void {
  const sizes = new Map<string, number>();
  for (const s of snapshots) for (const v of s.versions) if (v.hash !== null) sizes.set(v.hash, v.size);
  const problem = firstProblem(located, ([hash, location]) =>
    sizeProblem(sizes, hash, 'alone' in location ? location.size : location.entry[3], 'the contents'),
  );
  if (problem !== null)
    throw new HindsightError('REMOTE_CORRUPT', `The remote's snapshot records and pack indexes disagree: ${problem}. Nothing was taken from them.`);
}

/** The machine's snapshots, each once, oldest first; REMOTE_CORRUPT naming the first problem. */
export function machineSnapshots(machineId: string, recorded: readonly RecordedSnapshot[]): RecordedSnapshot[] {
  const byId = new Map<number, { snapshot: RecordedSnapshot; text: string }>();
  const repeats: RecordedSnapshot[] = [];
  for (const snapshot of recorded) {
    const text = JSON.stringify(snapshot);
    const seen = byId.get(snapshot.idOnMachine);
    if (!seen) byId.set(snapshot.idOnMachine, { snapshot, text });
    else if (seen.text !== text) repeats.push(snapshot);
  }
  const snapshots = [...byId.values()].map((s) => s.snapshot).sort((a, b) => a.idOnMachine - b.idOnMachine);
  // A differing repeat is checked with the rest, so it is named as an id listed twice.
  const problem = snapshotsProblem([...snapshots, ...repeats]);
  if (problem !== null) {
    throw new HindsightError(
      'REMOTE_CORRUPT',
      `The remote's snapshot records of machine ${machineId.slice(0, 8)} are damaged: ${problem}. Nothing was taken from them.`,
      {
        machine: machineId,
      },
    );
  }
  return snapshots;
}

/** The write recording another machine's snapshot here: marked with its machine and its id there, with the blobs its versions name. */
export function foreignSnapshotWrite(machineId: string, snapshot: RecordedSnapshot): SnapshotWrite {
  const { kind, at, label, branch, head, idOnMachine, versions } = snapshot;
  return { snapshot: { kind, at, label, branch, head, machine: machineId, machineSnapshot: idOnMachine }, versions, blobs: distinctBlobs(versions) };
}

/** The blobs a snapshot's versions name, each once (what its write notes in the blobs table). */
function distinctBlobs(versions: RecordedVersion[]): { hash: string; size: number }[] {
  const blobs = new Map<string, number>();
  for (const v of versions) if (v.hash !== null) blobs.set(v.hash, v.size);
  return [...blobs].map(([hash, size]) => ({ hash, size }));
}
