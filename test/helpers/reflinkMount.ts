import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A small XFS file system with reflink on a loop device, so the clone path runs for real on a
// machine whose own disk (ext4) cannot clone. Needs root, a loop device and mkfs.xfs; returns why
// not when any is missing, so the test can say it is skipped and why.

export interface ReflinkMount {
  dir: string;
  unmount: () => void;
}

export function mountReflinkFs(): ReflinkMount | string {
  if (process.getuid?.() !== 0) return 'not root';
  const base = mkdtempSync(join(tmpdir(), 'hindsight-xfs-'));
  const image = join(base, 'fs.img');
  const dir = join(base, 'mnt');
  mkdirSync(dir);
  try {
    execFileSync('truncate', ['-s', '320M', image]);
    execFileSync('mkfs.xfs', ['-q', '-m', 'reflink=1', image], { stdio: 'ignore' });
    execFileSync('mount', ['-o', 'loop', image, dir], { stdio: 'ignore' });
  } catch (error) {
    rmSync(base, { recursive: true, force: true });
    return `cannot mount an XFS loop file system here (${(error as Error).message.split('\n')[0]})`;
  }
  return {
    dir,
    unmount: () => {
      execFileSync('umount', [dir], { stdio: 'ignore' });
      rmSync(base, { recursive: true, force: true });
    },
  };
}
