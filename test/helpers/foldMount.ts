import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe } from 'vitest';

// A case-insensitive, case-preserving, normalization-insensitive folder as APFS has them: the FUSE
// layer in fold-fs/ over a temp folder on the machine's own disk. A suite on it is skipped by name,
// with the reason, where FUSE is missing; under CI=true a missing or failed mount fails the suite.

const script = fileURLToPath(new URL('./fold-fs/foldfs.py', import.meta.url));
const python = '/usr/bin/python3';

export interface FoldMount {
  /** The mounted folder: names in it resolve as on APFS. */
  dir: string;
  /** The same files through the machine's own disk, where names are exact. */
  backing: string;
}

/** Why no fold layer can be mounted here, or null when it can. */
export function foldFsBlocker(): string | null {
  if (!existsSync('/dev/fuse')) return 'no /dev/fuse';
  if (!existsSync(python)) return `no ${python}`;
  try {
    execFileSync(python, ['-c', 'import fusepy'], { stdio: 'ignore' });
    execFileSync('fusermount3', ['-V'], { stdio: 'ignore' });
  } catch {
    return 'python3-fusepy or fuse3 is not installed';
  }
  return null;
}

/** Mounts a fresh fold layer; throws with the layer's own words when the mount fails. */
export function mountFoldFs(): FoldMount & { unmount: () => void } {
  const base = mkdtempSync(join(tmpdir(), 'hindsight-fold-'));
  const backing = join(base, 'backing');
  const dir = join(base, 'mnt');
  mkdirSync(backing);
  mkdirSync(dir);
  try {
    // The layer daemonizes once the mount is in place, so this returns when the folder is ready.
    execFileSync(python, [script, backing, dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    rmSync(base, { recursive: true, force: true });
    throw new Error(`cannot mount the fold layer: ${String((error as { stderr?: unknown }).stderr ?? error)}`);
  }
  return {
    dir,
    backing,
    unmount: () => {
      try {
        execFileSync('fusermount3', ['-u', dir], { stdio: 'ignore' });
      } catch {
        // A process of the test still holds a file open there: detach now, gone when it closes.
        execFileSync('fusermount3', ['-u', '-z', dir], { stdio: 'ignore' });
      }
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** Flags a folder of the layer (made already) to compare the names it holds exactly, as an ext4 folder without `chattr +F` does. */
export function namesExactIn(mount: FoldMount, folder: string): void {
  const backing = join(mount.backing, relative(mount.dir, folder));
  execFileSync(python, ['-c', 'import os, sys; os.setxattr(sys.argv[1], "user.foldfs.exact", b"1")', backing]);
}

/**
 * A describe block whose tests run on one fold layer mounted for the block, with `mount()` giving
 * the mounted folder. Skipped by name, with the reason, where FUSE is missing, except under CI.
 */
export function describeOnFoldFs(name: string, body: (mount: () => FoldMount) => void): void {
  const blocker = process.env.CI === 'true' ? null : foldFsBlocker();
  const title = blocker === null ? `${name} (on a case-insensitive FUSE folder)` : `${name} (skipped: ${blocker})`;
  describe.skipIf(blocker !== null)(title, () => {
    let mounted: (FoldMount & { unmount: () => void }) | undefined;
    beforeAll(() => {
      mounted = mountFoldFs();
    });
    afterAll(() => mounted?.unmount());
    body(() => {
      if (mounted === undefined) throw new Error('the fold layer is not mounted');
      return mounted;
    });
  });
}
