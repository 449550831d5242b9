import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { median, minMax } from '../stats.js';
import { CLOCK_TICKS, sampleProcess } from './procStats.js';
import type { Figure } from './figures.js';
import { RecorderProcess } from './recorderProcess.js';

// Case 4: the start of `watch --all` over unchanged projects, from the spawn to the last
// project's `recording` line (its catch-up rescan and its watch in place), against
// `git status --porcelain` run in each folder one after the other (whole processes both). The
// two alternate over the rounds, which one goes first rotating; the ratio is of medians. The CPU
// time of both sides (the recorder's utime + stime at that line, every thread; git's from this
// process's reaped children) is reported beside it: on a loaded machine it is the figure to compare.

export async function catchUp(cli: string, dataDir: string, roots: readonly string[], rounds: number, quietMs: number): Promise<Figure[]> {
  // Not timed: git's index refreshed after the copy, the page cache warm for both sides.
  gitStatusAll(roots);
  const ours: number[] = [];
  const git: number[] = [];
  const oursCpu: number[] = [];
  const gitCpu: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['ours', 'git'] : ['git', 'ours'];
    for (const side of order) {
      if (side === 'git') {
        const before = reapedChildrenCpuMs();
        git.push(gitStatusAll(roots));
        gitCpu.push(reapedChildrenCpuMs() - before);
      } else {
        const run = await startToRecording(cli, dataDir, roots.length, quietMs);
        ours.push(run.ms);
        oursCpu.push(run.cpuMs);
      }
    }
    process.stderr.write(
      `catch-up round ${round + 1}/${rounds}: watch --all ${(ours.at(-1)! / 1000).toFixed(2)} s, git status x${roots.length} ${(git.at(-1)! / 1000).toFixed(2)} s\n`,
    );
  }
  const at = `catch-up, ${roots.length} unchanged projects, ${rounds} rounds`;
  const ratio = median(ours) / median(git);
  const range = (values: number[]) => `${(minMax(values).min / 1000).toFixed(2)}-${(minMax(values).max / 1000).toFixed(2)}`;
  return [
    {
      case: at,
      figure: 'watch --all start to every project recording: median (range) s',
      value: `${(median(ours) / 1000).toFixed(2)} (${range(ours)})`,
      target: '',
      met: null,
    },
    {
      case: at,
      figure: `${roots.length} git status --porcelain: median (range) s`,
      value: `${(median(git) / 1000).toFixed(2)} (${range(git)})`,
      target: '',
      met: null,
    },
    { case: at, figure: 'ratio watch --all / git status', value: `${ratio.toFixed(2)}x`, target: '<= 1.5x', met: ratio <= 1.5 },
    {
      case: at,
      figure: 'CPU time (user + system): watch --all to every project recording / git status, medians',
      value: `${(median(oursCpu) / 1000).toFixed(2)} / ${(median(gitCpu) / 1000).toFixed(2)} s = ${(median(oursCpu) / median(gitCpu)).toFixed(2)}x`,
      target: '',
      met: null,
    },
  ];
}

async function startToRecording(cli: string, dataDir: string, projects: number, quietMs: number): Promise<{ ms: number; cpuMs: number }> {
  const recorder = new RecorderProcess(cli, dataDir, quietMs);
  try {
    const { at } = await recorder.allRecording(projects);
    return { ms: at - recorder.startedAt, cpuMs: (sampleProcess(recorder.pid).cpuTicks * 1000) / CLOCK_TICKS };
  } finally {
    await recorder.stop();
  }
}

function gitStatusAll(roots: readonly string[]): number {
  const started = performance.now();
  for (const root of roots) execFileSync('git', ['status', '--porcelain'], { cwd: root, stdio: 'ignore' });
  return performance.now() - started;
}

/** CPU time of this process's children that ended and were waited for (cutime + cstime), in ms. */
function reapedChildrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS;
}
