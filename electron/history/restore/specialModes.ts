import type { FileEntry } from '../../../shared/history.js';
import type { HistoryIndex } from '../db/historyIndex.js';

// Setuid, setgid and sticky bits are kept exactly for this machine's own files (the design
// promises exact bits), but a history from elsewhere (a bundle imported, a clone, a pull) could
// hand anyone a setuid program by way of a restore. As tar and rsync do without -p or for a
// non-root user, a restore drops those bits from what came from another history unless it is
// asked to keep them (keepSpecialModes), and counts what it dropped so the caller can say so.
//
// Foreign: a version or folder mode recorded on another machine's line (a clone, a pull, or a
// bundle carrying other machines' snapshots), or in a snapshot a bundle import wrote onto this
// machine's line (db/importedThrough.ts: such snapshots cannot be told from this machine's own,
// so every snapshot up to the highest one an import wrote counts as foreign).

export const SPECIAL_BITS = 0o7000;

export class SpecialModes {
  /** Files and folders whose special bits were dropped so far. */
  dropped = 0;
  private readonly importedThrough: number;

  constructor(
    private readonly index: HistoryIndex,
    private readonly keep: boolean,
  ) {
    this.importedThrough = keep ? 0 : index.bundles.importedThrough();
  }

  /** The files of snapshot `at` as a restore writes them. */
  files(files: readonly FileEntry[], at: number): FileEntry[] {
    return files.map((file) => this.file(file, at));
  }

  /** One file of snapshot `at`: its version is looked up only when it has special bits. */
  file(file: FileEntry, at: number): FileEntry {
    if (this.keep || (file.mode & SPECIAL_BITS) === 0) return file;
    const versionId = this.index.versions.versionIdAt(file.path, at);
    const version = versionId === undefined ? undefined : this.index.versions.version(versionId);
    if (version && !this.foreign(version.snapshotId, version.machine !== undefined)) return file;
    return { ...file, mode: this.drop(file.mode) };
  }

  /** A version's mode as a restore of that version writes it. */
  versionMode(version: { mode: number; snapshotId: number; machine?: unknown }): number {
    if (this.keep || (version.mode & SPECIAL_BITS) === 0 || !this.foreign(version.snapshotId, version.machine !== undefined)) return version.mode;
    return this.drop(version.mode);
  }

  /** A folder's recorded mode at snapshot `at` as a restore sets it; undefined when none was recorded. */
  folderMode(at: number, path: string): number | undefined {
    const row = this.index.folderModes.folderModeRowAt(at, path);
    if (!row) return undefined;
    if (this.keep || (row.mode & SPECIAL_BITS) === 0 || !this.foreign(row.snapshotId, false)) return row.mode;
    return this.drop(row.mode);
  }

  private foreign(snapshotId: number, otherMachine: boolean): boolean {
    return otherMachine || snapshotId <= this.importedThrough;
  }

  private drop(mode: number): number {
    this.dropped++;
    return mode & ~SPECIAL_BITS;
  }
}

/** Files that all came from another history (what a clone writes): special bits dropped unless kept. */
export function foreignFiles(files: readonly FileEntry[], keep: boolean): { files: FileEntry[]; dropped: number } {
  if (keep) return { files: [...files], dropped: 0 };
  let dropped = 0;
  const written = files.map((file) => {
    if ((file.mode & SPECIAL_BITS) === 0) return file;
    dropped++;
    return { ...file, mode: file.mode & ~SPECIAL_BITS };
  });
  return { files: written, dropped };
}
