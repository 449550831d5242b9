import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A small ext4 file system made with casefold on a loop device: its folders fold case only where
// flagged `chattr +F`, so one device holds folders of both rules. Needs root, a loop device,
// mkfs.ext4 and a kernel built with casefold support; returns why not when any is missing, so the
// test can say it is skipped and why. A kernel without casefold is no mount CI could make: such a
// test is skipped by name there too.

export interface CasefoldMount {
  dir: string;
  /** Makes an empty folder at `path` fold case (chattr +F only takes an empty folder). */
  foldCaseIn: (path: string) => void;
  unmount: () => void;
}

/** Why this kernel cannot flag an ext4 folder at all (CI too is then skipped), or null when it can. */
export function casefoldKernelBlocker(): string | null {
  return existsSync('/sys/fs/ext4/features/casefold') ? null : 'this kernel has no ext4 casefold support (/sys/fs/ext4/features/casefold)';
}

export function mountCasefoldFs(): CasefoldMount | string {
  if (process.getuid?.() !== 0) return 'not root';
  const base = mkdtempSync(join(tmpdir(), 'hindsight-casefold-'));
  const image = join(base, 'fs.img');
  const dir = join(base, 'mnt');
  mkdirSync(dir);
  try {
    execFileSync('truncate', ['-s', '64M', image]);
    execFileSync('mkfs.ext4', ['-q', '-O', 'casefold', image], { stdio: 'ignore' });
    execFileSync('mount', ['-o', 'loop', image, dir], { stdio: 'ignore' });
  } catch (error) {
    rmSync(base, { recursive: true, force: true });
    return `cannot mount an ext4 file system with casefold here (${(error as Error).message.split('\n')[0]})`;
  }
  return {
    dir,
    foldCaseIn: (path) => execFileSync('chattr', ['+F', path], { stdio: 'ignore' }),
    unmount: () => {
      execFileSync('umount', [dir], { stdio: 'ignore' });
      rmSync(base, { recursive: true, force: true });
    },
  };
}
