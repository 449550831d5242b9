import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A small tmpfs, so a write runs into a real full disk (ENOSPC from the kernel, not a stub).
// Needs root; returns why not when it cannot be mounted, so the test can say it is skipped.

export interface SmallDisk {
  dir: string;
  unmount: () => void;
}

export function mountSmallDisk(bytes: number): SmallDisk | string {
  if (process.getuid?.() !== 0) return 'not root';
  const dir = mkdtempSync(join(tmpdir(), 'hindsight-small-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return `cannot mount a tmpfs here (${(error as Error).message.split('\n')[0]})`;
  }
  return {
    dir,
    unmount: () => {
      execFileSync('umount', [dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
