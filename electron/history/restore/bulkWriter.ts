import { closeSync, constants, fchmodSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { HindsightError } from '../../../shared/errors.js';
import { fsError } from '../fsErrors.js';
import { blobPath } from '../store/storeLayout.js';
import type { Closer } from './backgroundCloser.js';
import type { FolderMaker } from './folderMaker.js';
import type { RestoreTemps } from './restoreTemps.js';
import { writeVersion, type WritableVersion } from './writeVersion.js';
import { blobMissing } from '../store/readBlob.js';

// Writes many versions into the project: each one into a temp beside its target through a file
// handle opened here, its exact mode set on the handle, the handle given to the closer, and the
// temp renamed over the target only after its close succeeded. A process killed at any point
// leaves each target either as it was or as restored, never torn. Missing folders are recreated
// (each one once). A file that cannot be written is kept as a failure; the others go on.

const CHUNK = 1024 * 1024;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

export interface WriteFailure {
  path: string;
  error: Error;
}

export class BulkWriter {
  readonly written: string[] = [];
  readonly failures: WriteFailure[] = [];
  private readonly buffer = Buffer.allocUnsafe(CHUNK);

  constructor(
    private readonly blobsDir: string,
    private readonly closer: Closer,
    private readonly temps: RestoreTemps,
    private readonly folders: FolderMaker,
    private readonly onWritten: (path: string, bytes: number) => void = () => {},
  ) {}

  async write(path: string, version: WritableVersion & { size: number }, absTarget: string): Promise<void> {
    try {
      this.makeFolder(dirname(absTarget), path);
      if (version.type === 'symlink') {
        writeVersion(this.blobsDir, version, absTarget, path, this.temps);
        this.done(path, 0);
        return;
      }
    } catch (error) {
      this.failures.push({ path, error: error as Error });
      return;
    }
    const temp = this.temps.tempFor(absTarget);
    let fd: number;
    try {
      fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, 0o600);
    } catch (error) {
      this.failures.push({ path, error: fsError('write a temp for', path, error, 'RESTORE_FAILED') });
      return;
    }
    try {
      this.copyBlob(version.hash, fd);
      // The open applied the umask; the restored file must carry the recorded bits exactly.
      fchmodSync(fd, version.mode & 0o7777);
    } catch (error) {
      closeSync(fd);
      rmSync(temp, { force: true });
      this.failures.push({ path, error: fsError('restore', path, error, 'RESTORE_FAILED') });
      return;
    }
    await this.closer.close(
      fd,
      path,
      () => this.place(temp, absTarget, path, version.size),
      () => rmSync(temp, { force: true }),
    );
  }

  /** Waits for every close (a temp whose close failed is removed, its target left untouched), then sets the recreated folders' modes. */
  async finish(): Promise<void> {
    await this.closer.drain();
    this.failures.push(...this.folders.finish());
  }

  private place(temp: string, absTarget: string, path: string, size: number): void {
    try {
      renameSync(temp, absTarget);
    } catch (error) {
      rmSync(temp, { force: true });
      const err =
        (error as NodeJS.ErrnoException).code === 'EISDIR'
          ? new HindsightError('RESTORE_FAILED', `Cannot restore ${path}: a folder is in its place.`, { path })
          : fsError('restore', path, error, 'RESTORE_FAILED');
      this.failures.push({ path, error: err });
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

  private copyBlob(hash: string, out: number): void {
    let source: number;
    try {
      source = openSync(blobPath(this.blobsDir, hash), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw blobMissing(hash);
      }
      throw error;
    }
    try {
      for (;;) {
        const n = readSync(source, this.buffer, 0, CHUNK, null);
        if (n === 0) break;
        let offset = 0;
        while (offset < n) offset += writeSync(out, this.buffer, offset, n - offset);
      }
    } finally {
      closeSync(source);
    }
  }
}

