import { canTrace, traceReads } from './traceReads.js';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { childProcesses, cpuPercentOfOneCore, sampleProcess, wakeups } from './procStats.js';
import { mib, sleep, type Figure } from './figures.js';

// Case 1: the recorder of every project, idle. CPU over the window from /proc/<pid>/stat, memory
// from /proc/<pid>/status (threads included; processes it started are added), and read calls from
// /proc/<pid>/io, which adds no overhead. When read calls happen, a second window under strace
// says what they read (see traceReads.ts): a config.json poll is a stat, not a read. The window
// starts a few seconds after the last project reported `recording` (the settle), reported apart.
// Writes are told by the size and mtime of each project's history.db and -wal, and of the data
// folder's own files (config.json, the recorder's running mark); wake-ups by the voluntary context
// switches of every thread of the recorder.

export async function idleCost(pid: number, dataDir: string, settleSeconds: number, idleSeconds: number, traceSeconds: number): Promise<Figure[]> {
  const settled = await settle(pid, settleSeconds);
  const historiesBefore = historyFiles(dataDir);
  const dataBefore = dataFolderFiles(dataDir);
  const wakeupsBefore = wakeups(pid);
  const before = sampleProcess(pid);
  const started = performance.now();
  // Looked at every second (reading /proc costs the recorder nothing), so the log shows when in
  // the window the CPU and reads were spent.
  let last = before;
  for (let second = 1; second <= idleSeconds; second++) {
    await sleep(started + second * 1000 - performance.now());
    const now = sampleProcess(pid);
    if (now.cpuTicks !== last.cpuTicks || now.syscr !== last.syscr) {
      process.stderr.write(
        `idle second ${second}: ${now.cpuTicks - last.cpuTicks} CPU ticks, ${now.syscr - last.syscr} read calls, ${now.rchar - last.rchar} bytes\n`,
      );
    }
    last = now;
  }
  const after = last;
  const wallMs = performance.now() - started;
  const woken = wakeups(pid) - wakeupsBefore;
  const historiesAfter = historyFiles(dataDir);
  const historiesWritten = Object.keys(historiesAfter).filter((id) => historiesAfter[id] !== historiesBefore[id]).length;
  const dataAfter = dataFolderFiles(dataDir);
  const dataWritten = Object.keys(dataAfter).filter((name) => dataAfter[name] !== dataBefore[name]);
  const children = childProcesses(pid);
  const childrenRssKb = children.reduce((sum, child) => sum + sampleProcess(child).rssKb, 0);
  const cpu = cpuPercentOfOneCore(before, after, wallMs);
  const syscr = after.syscr - before.syscr;
  const rchar = after.rchar - before.rchar;
  const totalRss = mib(after.rssKb + childrenRssKb);
  const at = `idle ${idleSeconds} s`;
  const figures: Figure[] = [
    ...settled,
    { case: at, figure: 'CPU of the recorder (% of one core)', value: cpu.toFixed(3), target: '<= 0.2', met: cpu <= 0.2 },
    { case: at, figure: 'projects whose history.db or -wal was written', value: String(historiesWritten), target: '0', met: historiesWritten === 0 },
    {
      case: at,
      figure: `files of the data folder written (${dataWritten.join(', ') || 'none'}; at most one per 10 minutes)`,
      value: String(dataWritten.length),
      target: `<= ${Math.ceil(idleSeconds / 600)}`,
      met: dataWritten.length <= Math.ceil(idleSeconds / 600),
    },
    {
      case: at,
      figure: 'wake-ups per 10 s (voluntary context switches, every thread)',
      value: ((woken * 10) / idleSeconds).toFixed(2),
      target: '<= 1',
      met: (woken * 10) / idleSeconds <= 1,
    },
    {
      case: at,
      figure: `RSS at the end (MiB; ${after.threads} threads, ${children.length} child processes)`,
      value: String(totalRss),
      target: '<= 250',
      met: totalRss <= 250,
    },
    { case: at, figure: 'peak RSS since start, catch-up included (VmHWM, MiB)', value: String(mib(after.hwmKb)), target: '', met: null },
    { case: at, figure: 'read calls, any descriptor (/proc io syscr delta)', value: String(syscr), target: '', met: null },
    { case: at, figure: 'bytes those calls returned (rchar delta)', value: String(rchar), target: '', met: null },
    { case: at, figure: 'bytes read from storage (read_bytes delta)', value: String(after.readBytes - before.readBytes), target: '', met: null },
  ];
  if (syscr === 0) {
    figures.push({ case: at, figure: 'file reads', value: '0', target: '0', met: true });
    return figures;
  }
  if (traceSeconds <= 0 || !canTrace()) {
    figures.push({ case: at, figure: 'file reads (not told apart from other reads: no strace window)', value: `<= ${syscr}`, target: '0', met: null });
    return figures;
  }
  const traced = await traceReads(pid, traceSeconds);
  process.stderr.write(`idle: what the recorder read in ${traceSeconds} s under strace -f -y:\n`);
  for (const row of traced.rows.slice(0, 20)) process.stderr.write(`  ${row.count} x ${row.call} ${row.target} (${row.bytes} bytes)\n`);
  const perWindow = Math.round((traced.fileReads * idleSeconds) / traceSeconds);
  figures.push({
    case: at,
    figure: `file reads (strace ${traceSeconds} s window, scaled to the idle window)`,
    value: String(perWindow),
    target: '0',
    met: traced.fileReads === 0,
  });
  for (const row of traced.rows.slice(0, 6)) {
    figures.push({ case: `${at}, strace ${traceSeconds} s`, figure: `${row.call} ${row.target}`, value: String(row.count), target: '', met: null });
  }
  return figures;
}

/** Each project's history.db and -wal as size and mtime, by project id: any write moves one of them. */
function historyFiles(dataDir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const projects = join(dataDir, 'projects');
  for (const id of readdirSync(projects)) {
    files[id] = ['history.db', 'history.db-wal'].map((name) => stamp(join(projects, id, name))).join(' ');
  }
  return files;
}

/** The data folder's own files (not its projects) as size and mtime. */
function dataFolderFiles(dataDir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dataDir)) if (name !== 'projects') files[name] = stamp(join(dataDir, name));
  return files;
}

function stamp(path: string): string {
  const st = statSync(path, { throwIfNoEntry: false });
  return st === undefined ? 'none' : `${st.size}:${st.mtimeMs}`;
}

/** A second in which the recorder read less than this has finished its start's work. */
const QUIET_READ_BYTES = 64 * 1024;
/** The longest the settle may last before the idle window starts anyway. */
const SETTLE_LIMIT_SECONDS = 600;

/**
 * The time right after the last project reported `recording`, reported apart: at least
 * `settleSeconds`, and until a whole second passes with under 64 KiB read. Each watch's start asks
 * for a reconciling rescan, which runs then; the first start after a first copy re-reads every
 * file of the project once there (see the report of the run).
 */
async function settle(pid: number, settleSeconds: number): Promise<Figure[]> {
  const before = sampleProcess(pid);
  const started = performance.now();
  let last = before;
  let elapsed = 0;
  for (;;) {
    await sleep(started + (elapsed + 1) * 1000 - performance.now());
    elapsed += 1;
    const now = sampleProcess(pid);
    const quiet = now.rchar - last.rchar < QUIET_READ_BYTES;
    last = now;
    if ((quiet && elapsed >= settleSeconds) || elapsed >= SETTLE_LIMIT_SECONDS) break;
  }
  const at = `settle: the first ${elapsed} s after all recording`;
  const cpu = cpuPercentOfOneCore(before, last, performance.now() - started);
  return [
    { case: at, figure: 'CPU of the recorder (% of one core)', value: cpu.toFixed(3), target: '', met: null },
    {
      case: at,
      figure: 'read calls (syscr delta) / bytes (rchar delta)',
      value: `${last.syscr - before.syscr} / ${last.rchar - before.rchar}`,
      target: '',
      met: null,
    },
  ];
}
