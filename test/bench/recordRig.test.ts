import { describe, expect, it } from 'vitest';
import { sampleProcess } from './record/procStats.js';
import { summarize } from './record/traceReads.js';

// The record benchmark's readers on real inputs: this process's own /proc entries, and strace -y
// lines as strace writes them. Nothing is timed.

describe('the record benchmark rig', () => {
  it('reads CPU ticks, memory and read calls of a live process from /proc', () => {
    const sample = sampleProcess(process.pid);
    expect(sample.rssKb).toBeGreaterThan(0);
    expect(sample.hwmKb).toBeGreaterThanOrEqual(sample.rssKb);
    expect(sample.syscr).toBeGreaterThan(0);
    expect(sample.threads).toBeGreaterThan(0);
    expect(Number.isFinite(sample.cpuTicks)).toBe(true);
  });

  it('tells file reads from reads of eventfds and pipes in strace -y output', () => {
    const traced = summarize(
      [
        '1234  read(17<anon_inode:[eventfd]>, "\\1\\0\\0\\0\\0\\0\\0\\0", 1024) = 8',
        '1234  read(17<anon_inode:[eventfd]>, "\\1\\0\\0\\0\\0\\0\\0\\0", 1024) = 8',
        '1240  pread64(23</data/projects/p/history.db>, "SQLite"..., 4096, 0) = 4096',
        '1234  read(5<pipe:[991]>, "x", 1) = 1',
        '1234  openat(AT_FDCWD</work>, "/data/config.json", O_RDONLY|O_CLOEXEC) = 24</data/config.json>',
      ].join('\n'),
    );
    expect(traced.fileReads).toBe(1);
    expect(traced.rows[0]).toEqual({ call: 'read', target: 'anon_inode:[eventfd]', count: 2, bytes: 16 });
    expect(traced.rows).toContainEqual({ call: 'openat', target: '/data/config.json', count: 1, bytes: 0 });
    expect(traced.rows).toContainEqual({ call: 'read', target: '/data/projects/p/history.db', count: 1, bytes: 4096 });
  });
});
