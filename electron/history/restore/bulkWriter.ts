import { dirname } from 'node:path';
import { fsError } from '../fsErrors.js';
import type { Closer } from './backgroundCloser.js';
import type { FolderMaker } from './folderMaker.js';
import { dropTemp, moveIntoPlace, writeTemp } from './replaceFile.js';
import type { RestoreTemps } from '../project/restoreTemps.js';
import { writeVersion, type WritableVersion } from './writeVersion.js';
import { appendAll } from '../../../shared/largeArrays.js';
import type { BlobStore } from '../store/blobStore.js';

// Writes many versions into the project: each one into a temp beside its target (replaceFile.ts,
// named and journaled by the restore's RestoreTemps), the handle given to the closer, and the
// temp renamed over the target only after its close succeeded. A process killed at any point
// leaves each target either as it was or as restored, never torn. Missing folders are recreated
// by the FolderMaker (each one once, its recorded mode set at the end). A file that cannot be
// written is kept as a failure; the others go on.

const CHUNK = 1024 * 1024;

export interface WriteFailure {
  path: string;
  error: Error;
}

export class BulkWriter {
  readonly written: string[] = [];
  readonly failures: WriteFailure[] = [];
  private readonly buffer = Buffer.allocUnsafe(CHUNK);

  constructor(
    private readonly blobs: BlobStore,
    private readonly closer: Closer,
    private readonly temps: RestoreTemps,
    private readonly folders: FolderMaker,
    private readonly onWritten: (path: string, bytes: number) => void = () => {},
  ) {}

  async write(path: string, version: WritableVersion, absTarget: string): Promise<void> {
    let temp: string;
    let fd: number;
    try {
      this.makeFolder(dirname(absTarget), path);
      if (version.type === 'symlink') {
        writeVersion(this.blobs, version, absTarget, path, this.temps);
        this.done(path, 0);
        return;
      }
      temp = this.temps.tempFor(absTarget);
      fd = writeTemp(this.blobs, version, temp, path, this.buffer);
    } catch (error) {
      this.failures.push({ path, error: error as Error });
      return;
    }
    await this.closer.close(
      fd,
      path,
      () => this.place(temp, absTarget, path, version.size),
      () => dropTemp(temp),
    );
  }

  /** Waits for every close (a temp whose close failed is removed, its target left untouched), then sets the recreated folders' modes. */
  async finish(): Promise<void> {
    await this.closer.drain();
    appendAll(this.failures, this.folders.finish());
  }

  private place(temp: string, absTarget: string, path: string, size: number): void {
    try {
      moveIntoPlace(temp, absTarget, path);
    } catch (error) {
      this.failures.push({ path, error: error as Error });
      return;
    }
    this.done(path, size);
  }

  private done(path: string, bytes: number): void {
    this.written.push(path);
    this.onWritten(path, bytes);
  }

  private makeFolder(dir: string, path: string): void {
    try {
      this.folders.make(dir);
    } catch (error) {
      throw fsError('recreate the folder for', path, error, 'RESTORE_FAILED');
    }
  }
}
