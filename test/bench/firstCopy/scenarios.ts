import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureFixture } from '../fixtures/generateFixture.js';
import { measureProcess, type ProcessMeasure } from '../measureProcess.js';
import { cpTool, gitTool, hindsightTool, onPath, resticTool, runSequentialCp, tarTool, type CopyTool } from './copyTools.js';

// The first-copy scenarios of issue 3, each a list of entries run in alternation every round:
//   a  one first open of 4,005 files (the CLI, whole process) against cp -a, tar | tar, git add, restic;
//      plus one in-process open with the side stat (c), and the side stat alone (the machine's floor)
//   b  11 projects of 4,005 files opening at once in one process, with the side stat (c), against
//      11 cp -a one after another
//   d  50,005 files, the same tools as (a)
//   e  4 x 256 MiB: peak RSS, against cp -a and tar | tar
//   h  2 x 256 MiB: peak RSS of the whole CLI (issue 45: <= 100 MiB), against cp -a and tar | tar
//   f  a folder shaped like a real source tree (src-tree): the tools of (a), and in-process
//   g  reopening src-tree-git with nothing changed, whole CLI process and in-process, against
//      `git status` on the same tree (the first copy is made untimed before each)

export type ScenarioId = 'a' | 'b' | 'd' | 'e' | 'f' | 'g' | 'h';
export const SCENARIO_IDS: readonly ScenarioId[] = ['a', 'b', 'd', 'e', 'f', 'g', 'h'];

export interface DriverReport {
  projects: number;
  readyMs: number[];
  medianReadyMs: number;
  allDoneMs: number;
  /** CPU time of the driver's main thread over the opens (the critical path); absent without /proc. */
  mainThreadMs?: number;
  /** CPU time of every thread over the opens. */
  cpuMs?: number;
  stat: { count: number; p50Ms: number; p99Ms: number; maxMs: number; maxLateMs: number };
}

export interface Sample extends Omit<ProcessMeasure, 'stdout' | 'stderr' | 'code'> {
  driver?: DriverReport;
}

export interface Entry {
  name: string;
  prepare?: (scratch: string) => void;
  run: (scratch: string) => Promise<Sample>;
}

export interface Scenario {
  id: ScenarioId;
  title: string;
  /** The entry every other one is compared with. */
  baseline: string;
  entries: Entry[];
}

export interface RigPaths {
  fixtures: string;
  cli: string;
  driver: string;
}

export function buildScenarios(ids: readonly ScenarioId[], paths: RigPaths, skipped: Set<string>): Scenario[] {
  const available = (tools: CopyTool[]) =>
    tools.filter((tool) => {
      if (onPath(tool.needs)) return true;
      skipped.add(`${tool.name} (${tool.needs} not installed)`);
      return false;
    });
  const allTools = () => available([hindsightTool(paths.cli), cpTool, tarTool, gitTool, resticTool]);
  const scenarios: Scenario[] = [];
  for (const id of ids) {
    if (id === 'a') {
      const src = ensureFixture(paths.fixtures, 'seed-4005');
      scenarios.push({
        id,
        title: '(a) one first open, 4,005 files',
        baseline: 'cp -a',
        entries: [
          ...allTools().map((t) => toolEntry(t, src)),
          driverEntry('hindsight in-process + side stat', paths.driver, [src]),
          driverEntry('side stat alone, no copy (3 s)', paths.driver, [], ['--idle-ms', '3000']),
        ],
      });
    } else if (id === 'b') {
      const srcs = Array.from({ length: 11 }, (_, i) => ensureFixture(paths.fixtures, 'seed-4005', `seed-4005-project${i + 1}`));
      scenarios.push({
        id,
        title: '(b) 11 projects of 4,005 files opening at once in one process',
        baseline: '11 x cp -a, one after another',
        entries: [
          driverEntry('hindsight, 11 at once', paths.driver, srcs),
          { name: '11 x cp -a, one after another', run: async (scratch) => strip(await runSequentialCp(srcs, scratch)) },
        ],
      });
    } else if (id === 'd') {
      const src = ensureFixture(paths.fixtures, 'seed-50005');
      scenarios.push({ id, title: '(d) one first open, 50,005 files', baseline: 'cp -a', entries: allTools().map((t) => toolEntry(t, src)) });
    } else if (id === 'f') {
      const src = ensureFixture(paths.fixtures, 'src-tree');
      scenarios.push({
        id,
        title: '(f) one first open, a real-source-tree-shaped folder (about 5,000 files, nested .gitignore)',
        baseline: 'cp -a',
        entries: [...allTools().map((t) => toolEntry(t, src)), driverEntry('hindsight in-process + side stat', paths.driver, [src])],
      });
    } else if (id === 'g') {
      const src = ensureFixture(paths.fixtures, 'src-tree-git');
      const firstCopy = (scratch: string) =>
        execFileSync(process.execPath, [paths.cli, 'open', src, '--data-dir', join(scratch, 'data'), '--json'], { stdio: 'ignore' });
      scenarios.push({
        id,
        title: '(g) reopen with nothing changed, src-tree-git, against git status',
        baseline: 'git status',
        entries: [
          { name: 'git status', run: async () => strip(await measureProcess('git', ['status', '--porcelain'], { cwd: src })) },
          { name: 'hindsight open (reopen)', prepare: firstCopy, run: async (scratch) => strip(await hindsightTool(paths.cli).run(src, scratch)) },
          driverEntry('hindsight reopen in-process + side stat', paths.driver, [src], ['--reopen']),
        ],
      });
    } else {
      const [shape, title] = id === 'h' ? (['big-2x256', '(h) 2 x 256 MiB random files'] as const) : (['big-4x256', '(e) 4 x 256 MiB random files'] as const);
      const src = ensureFixture(paths.fixtures, shape);
      const tools = available([hindsightTool(paths.cli), cpTool, tarTool]);
      scenarios.push({ id, title, baseline: 'cp -a', entries: tools.map((t) => toolEntry(t, src)) });
    }
  }
  return scenarios;
}

function toolEntry(tool: CopyTool, src: string): Entry {
  return {
    name: tool.name,
    prepare: tool.prepare,
    run: async (scratch) => {
      const measured = await tool.run(src, scratch);
      if (measured.code !== 0) throw new Error(`${tool.name} failed (exit ${measured.code}): ${measured.stderr.slice(0, 500)}`);
      return strip(measured);
    },
  };
}

function driverEntry(name: string, driver: string, srcs: readonly string[], extra: readonly string[] = []): Entry {
  return {
    name,
    run: async (scratch) => {
      const measured = await measureProcess(process.execPath, [driver, '--data-dir', join(scratch, 'data'), ...extra, ...srcs]);
      if (measured.code !== 0) throw new Error(`${name} failed (exit ${measured.code}): ${measured.stderr.slice(0, 500)}`);
      return { ...strip(measured), driver: JSON.parse(measured.stdout.trim().split('\n').at(-1)!) as DriverReport };
    },
  };
}

function strip(measured: ProcessMeasure): Sample {
  if (measured.code !== 0) throw new Error(`exit ${measured.code}: ${measured.stderr.slice(0, 500)}`);
  return { wallMs: measured.wallMs, cpuMs: measured.cpuMs, maxRssKb: measured.maxRssKb };
}
