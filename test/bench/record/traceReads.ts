import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Which descriptors an idle process reads, for when /proc/<pid>/io shows read calls: its syscr
// counts a read of any descriptor (libuv's eventfd that wakes the loop when a pool job ends, a
// pipe, inotify's queue) as well as a file's. strace -f -y, attached to every thread for a while,
// names each descriptor; reads are summed by what they read, opens by the path opened. Only
// when asked for and after the measured window: tracing slows the process it traces.

export interface TracedReads {
  /** "read <target>" or "openat <path>" with its count and bytes, most frequent first. */
  rows: { call: string; target: string; count: number; bytes: number }[];
  /** Reads of regular files (targets that are paths). */
  fileReads: number;
}

const CALLS = 'read,pread64,readv,preadv,preadv2,openat';

export function canTrace(): boolean {
  return ['/usr/bin/strace', '/bin/strace'].some((p) => existsSync(p));
}

export async function traceReads(pid: number, seconds: number): Promise<TracedReads> {
  const out = join(tmpdir(), `hindsight-bench-strace-${pid}-${Date.now()}`);
  const strace = spawn('strace', ['-f', '-y', '-qq', '-e', `trace=${CALLS}`, '-o', out, '-p', String(pid)], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const done = new Promise((resolve) => strace.on('exit', resolve));
  strace.kill('SIGINT');
  await done;
  const text = existsSync(out) ? readFileSync(out, 'utf8') : '';
  rmSync(out, { force: true });
  return summarize(text);
}

// e.g. `1234  read(17<anon_inode:[eventfd]>, "\1\0\0\0\0\0\0\0", 1024) = 8`
//      `1234  openat(AT_FDCWD</x>, "/data/config.json", O_RDONLY|O_CLOEXEC) = 23</data/config.json>`
const READ = /^\d+\s+(read|pread64|readv|preadv|preadv2)\(\d+<([^>]*)>.*\)\s+=\s+(-?\d+)/;
const OPEN = /^\d+\s+openat\([^,]*,\s+"([^"]*)".*\)\s+=\s+(-?\d+)/;

export function summarize(text: string): TracedReads {
  const rows = new Map<string, { call: string; target: string; count: number; bytes: number }>();
  const add = (call: string, target: string, bytes: number) => {
    const key = `${call} ${target}`;
    const row = rows.get(key) ?? { call, target, count: 0, bytes: 0 };
    row.count += 1;
    row.bytes += Math.max(0, bytes);
    rows.set(key, row);
  };
  for (const line of text.split('\n')) {
    const read = READ.exec(line);
    if (read) add('read', read[2]!, Number(read[3]));
    const open = OPEN.exec(line);
    if (open) add('openat', open[1]!, 0);
  }
  const sorted = [...rows.values()].sort((a, b) => b.count - a.count);
  const fileReads = sorted.filter((r) => r.call === 'read' && r.target.startsWith('/')).reduce((n, r) => n + r.count, 0);
  return { rows: sorted, fileReads };
}
