import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffTexts } from '../../../shared/diff/textDiff.js';
import { editLines, sourceText } from '../../helpers/realEdits.js';
import { machineInfo } from '../firstCopy/machineInfo.js';
import { measureProcess } from '../measureProcess.js';
import { median, minMax } from '../stats.js';

// `npm run bench:diff [-- --rounds N]`: the viewer's line diff (shared/diff) on two 10,000-line
// files, against `diff -u` and `git diff --no-index --histogram` on the same files, in the same
// run. Ours runs in this process (what the viewer does, minus drawing); the references are whole
// processes, so their figures include starting up: the same command on two identical files is
// measured as well, and its cost shown beside them. CPU time (user + sys) is the figure to
// compare on a shared machine; wall time is printed too. GNU time counts CPU in 10 ms steps, so
// each measurement is a batch of BATCH runs (a shell loop for the references), divided by BATCH.
// The load average is printed at start and end: read the results against it.

const BATCH = 50;

interface Pair {
  name: string;
  what: string;
  before: string[];
  after: string[];
}

function pairs(): Pair[] {
  const source = sourceText(20_000);
  const base = source.slice(0, 10_000);
  return [
    { name: 'edits-40', what: "10,000 lines of this project's code, 40 edits spread through it", before: base, after: editLines(base, 40, 40) },
    { name: 'edits-400', what: 'the same, 400 edits', before: base, after: editLines(base, 400, 400) },
    { name: 'unrelated', what: 'two different 10,000-line stretches of code (almost every line differs)', before: base, after: source.slice(10_000, 20_000) },
  ];
}

interface Figures {
  cpuMs: number[];
  wallMs: number[];
}

const summary = (f: Figures) => ({ cpuMs: round(median(f.cpuMs)), wallMs: round(median(f.wallMs)), wallRange: minMax(f.wallMs) });
const round = (n: number) => Math.round(n * 100) / 100;

function ours(before: string, after: string, rounds: number): Figures & { hunks: number; added: number; removed: number } {
  const f: Figures = { cpuMs: [], wallMs: [] };
  let result = diffTexts(before, after); // warm-up: the first run also compiles
  for (let i = 0; i < rounds; i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let k = 0; k < BATCH; k++) result = diffTexts(before, after);
    f.wallMs.push((performance.now() - started) / BATCH);
    const used = process.cpuUsage(cpu);
    f.cpuMs.push((used.user + used.system) / 1000 / BATCH);
  }
  return { ...f, hunks: result.hunks.length, added: result.added, removed: result.removed };
}

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

async function command(argv: string[], rounds: number): Promise<Figures & { stdout: string }> {
  const f: Figures = { cpuMs: [], wallMs: [] };
  const line = argv.map(quote).join(' ');
  for (let i = 0; i < rounds; i++) {
    const run = await measureProcess('sh', ['-c', `i=0; while [ $i -lt ${BATCH} ]; do ${line} >/dev/null; i=$((i+1)); done`]);
    f.cpuMs.push(run.cpuMs / BATCH);
    f.wallMs.push(run.wallMs / BATCH);
  }
  const once = await measureProcess(argv[0]!, argv.slice(1));
  return { ...f, stdout: once.stdout };
}

const hunksIn = (unified: string) => unified.split('\n').filter((l) => l.startsWith('@@ ')).length;

async function main(): Promise<void> {
  const roundsAt = process.argv.indexOf('--rounds');
  const rounds = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 5;
  const dir = mkdtempSync(join(tmpdir(), 'hindsight-diff-bench-'));
  const loadAtStart = loadavg().map((l) => round(l));
  console.log(`diff benchmark, ${rounds} rounds of ${BATCH} runs each; load average at start ${loadAtStart.join(' ')}`);
  console.log(JSON.stringify(machineInfo(dir)));
  const rows = [];
  try {
    for (const pair of pairs()) {
      const a = join(dir, `${pair.name}.a`);
      const b = join(dir, `${pair.name}.b`);
      const beforeText = `${pair.before.join('\n')}\n`;
      const afterText = `${pair.after.join('\n')}\n`;
      writeFileSync(a, beforeText);
      writeFileSync(b, afterText);
      const mine = ours(beforeText, afterText, rounds);
      const diffU = await command(['diff', '-u', a, b], rounds);
      const diffUIdle = await command(['diff', '-u', a, a], rounds);
      const git = await command(['git', 'diff', '--no-index', '--histogram', a, b], rounds);
      const gitIdle = await command(['git', 'diff', '--no-index', '--histogram', a, a], rounds);
      const row = {
        pair: pair.name,
        what: pair.what,
        lines: [pair.before.length, pair.after.length],
        hunks: { ours: mine.hunks, 'diff -u': hunksIn(diffU.stdout), git: hunksIn(git.stdout) },
        ours: summary(mine),
        'diff -u': { ...summary(diffU), sameFilesCpuMs: round(median(diffUIdle.cpuMs)) },
        'git diff --histogram': { ...summary(git), sameFilesCpuMs: round(median(gitIdle.cpuMs)) },
        cpuRatioToDiffU: round(median(mine.cpuMs) / median(diffU.cpuMs)),
        cpuRatioToGit: round(median(mine.cpuMs) / median(git.cpuMs)),
      };
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `load average at end ${loadavg()
      .map((l) => round(l))
      .join(' ')}`,
  );
}

await main();
