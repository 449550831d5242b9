import { posix, win32 } from 'node:path';
import { projectPathProblem } from '../../../shared/projectPath.js';
import { firstProblem, idProblem, sizeProblem, snapshotsProblem, timeProblem } from '../remoteLayout/recordChecks.js';
import { bundleCorrupt, type BundleHeader, type BundleLine, type BundlePins, type BundleSnapshot, type FolderModeRow } from './bundleFormat.js';

// A bundle's header and rows checked against each other before anything is registered or
// written (docs/BUNDLE.md "Import"): what remote records must hold (remoteLayout/recordChecks.ts),
// plus what only a bundle carries: version ids, the folder it was recorded at, folder modes,
// pins and lines. The blobs come after the rows; each blob's size is checked against the size
// its versions give it as its head is read (importBundle.ts), before its bytes are stored.

export interface BundleRows {
  snapshots: readonly BundleSnapshot[];
  folderModes: readonly FolderModeRow[];
  /** Null: a bundle of format 1, which carried none. */
  pins: BundlePins | null;
  /** Null before format 3. */
  lines: readonly BundleLine[] | null;
}

/** Refused before the project is registered: the header alone is wrong. */
export function checkBundleHeader(header: BundleHeader): void {
  const problem = headerProblem(header);
  if (problem !== null) throw bundleCorrupt(problem);
}

/** Refused before anything is written; answers the size each carried or required hash must have. */
export function checkBundleRows(header: BundleHeader, rows: BundleRows): Map<string, number> {
  const sizes = new Map<string, number>();
  const problem =
    snapshotsProblem(rows.snapshots, sizes) ??
    firstProblem(header.requires, ([hash, size]) => sizeProblem(sizes, hash, size, 'a required blob')) ??
    firstProblem(header.leftOut ?? [], ([hash, size]) => sizeProblem(sizes, hash, size, 'a blob left out')) ??
    bundleFieldsProblem(rows.snapshots) ??
    folderModesProblem(rows.folderModes, new Set(rows.snapshots.map((s) => s.idOnMachine))) ??
    pinsProblem(rows.pins) ??
    firstProblem(rows.lines ?? [], (l) => (l.fork ? idProblem(l.fork.origin, 'the fork of a line names snapshot') : null));
  if (problem !== null) throw bundleCorrupt(problem);
  return sizes;
}

function headerProblem(header: BundleHeader): string | null {
  // The folder an import without --as goes to: never one relative to wherever the import runs.
  if (!posix.isAbsolute(header.root) && !win32.isAbsolute(header.root))
    return `the folder it was recorded at (${JSON.stringify(header.root)}) is not an absolute path`;
  const { first, last } = header.snapshots;
  return (
    (first === null ? null : idProblem(first, 'its first snapshot')) ??
    (last === null ? null : idProblem(last, 'its last snapshot')) ??
    (header.since ? (idProblem(header.since.snapshotId, 'the snapshot it follows') ?? timeProblem(header.since.at, 'the snapshot it follows')) : null)
  );
}

/** Version ids once in the bundle, and every id a snapshot or version names in range. */
function bundleFieldsProblem(snapshots: readonly BundleSnapshot[]): string | null {
  const versionIds = new Set<number>();
  return firstProblem(snapshots, (s) => {
    const named =
      (s.made?.snapshot ? idProblem(s.made.snapshot, `snapshot ${s.idOnMachine} comes from snapshot`) : null) ??
      (s.machine ? idProblem(s.machine.snapshot, `snapshot ${s.idOnMachine} has, on its machine, the id`) : null);
    if (named !== null) return named;
    return firstProblem(s.versions, (v) => {
      const problem =
        idProblem(v.versionId, `snapshot ${s.idOnMachine} lists version`) ??
        (v.fromVersion ? idProblem(v.fromVersion, `version ${v.versionId} comes from version`) : null);
      if (problem !== null) return problem;
      if (versionIds.has(v.versionId)) return `version ${v.versionId} is listed twice`;
      versionIds.add(v.versionId);
      return null;
    });
  });
}

/** Each folder mode of a snapshot the bundle carries, at a project path, once. */
function folderModesProblem(rows: readonly FolderModeRow[], carried: ReadonlySet<number>): string | null {
  const seen = new Set<string>();
  return firstProblem(rows, ([path, snapshotId]) => {
    if (projectPathProblem(path) !== null) return `a folder mode names ${JSON.stringify(path)}, which is not a path inside the project`;
    if (!carried.has(snapshotId)) return `the folder mode of ${path} names snapshot ${snapshotId}, which it does not carry`;
    const key = `${snapshotId}\0${path}`;
    if (seen.has(key)) return `snapshot ${snapshotId} gives the folder ${path} a mode twice`;
    seen.add(key);
    return null;
  });
}

function pinsProblem(pins: BundlePins | null): string | null {
  if (!pins) return null;
  const rows = [...pins.snapshots.map((p) => ['snapshot', ...p] as const), ...pins.versions.map((p) => ['version', ...p] as const)];
  return firstProblem(rows, ([what, id, at]) => idProblem(id, `a pin names ${what}`) ?? timeProblem(at, `the pin of ${what} ${id}`));
}
