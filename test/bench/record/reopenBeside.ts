import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { measureProcess, type ProcessMeasure } from '../measureProcess.js';
import { median, minMax } from '../stats.js';
import type { Figure } from './figures.js';
import { RecorderProcess } from './recorderProcess.js';

// Case 5 (issue 45's first target): `hindsight open` of an unchanged project (the big one) while
// `watch --all` records the data folder, against `hindsight --help` (the CLI's own start), whole
// processes both, alternating over the rounds, which one goes first rotating; the ratio is of
// medians. The open asks the recorder (its socket) and reads history.db with no rescan: each
// open's trace must say so (`open.rescansSkipped` 1, no lstat of the tree), else the figure
// measures a rescan and the case fails rather than report it.

export async function reopenBeside(cli: string, dataDir: string, root: string, projects: number, rounds: number, quietMs: number): Promise<Figure[]> {
  const recorder = new RecorderProcess(cli, dataDir, quietMs);
  const opens: number[] = [];
  const helps: number[] = [];
  const trace = join(dataDir, '..', 'reopen-trace.jsonl');
  try {
    await recorder.allRecording(projects);
    // Not timed: one of each first, so both start from a warm page cache and compile cache.
    succeeded(await measureProcess(process.execPath, [cli, '--help']), '--help');
    await openOnce(cli, dataDir, root, trace);
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? ['open', 'help'] : ['help', 'open']) {
        if (side === 'help') helps.push(succeeded(await measureProcess(process.execPath, [cli, '--help']), '--help').wallMs);
        else opens.push((await openOnce(cli, dataDir, root, trace)).wallMs);
      }
    }
  } finally {
    await recorder.stop();
    rmSync(trace, { force: true });
  }
  const at = `open beside watch --all, ${rounds} rounds`;
  const ratio = median(opens) / median(helps);
  const range = (values: number[]) => `${Math.round(minMax(values).min)}-${Math.round(minMax(values).max)}`;
  return [
    {
      case: at,
      figure: 'hindsight open of the unchanged big project: median (range) ms',
      value: `${Math.round(median(opens))} (${range(opens)})`,
      target: '',
      met: null,
    },
    { case: at, figure: 'hindsight --help: median (range) ms', value: `${Math.round(median(helps))} (${range(helps)})`, target: '', met: null },
    { case: at, figure: 'ratio open / --help', value: `${ratio.toFixed(2)}x`, target: '<= 1.3x', met: ratio <= 1.3 },
  ];
}

/** One whole-CLI open, checked to have asked the recorder and walked nothing. */
async function openOnce(cli: string, dataDir: string, root: string, trace: string): Promise<ProcessMeasure> {
  rmSync(trace, { force: true });
  const run = succeeded(
    await measureProcess(process.execPath, [cli, 'open', root, '--data-dir', dataDir], { env: { ...process.env, HINDSIGHT_TRACE: trace } }),
    'open',
  );
  const counters = JSON.parse(readFileSync(trace, 'utf8').trim().split('\n').at(-1)!) as Record<string, number>;
  if (counters['open.rescansSkipped'] !== 1 || (counters['walk.lstat'] ?? 0) > 0) {
    throw new Error(`open rescanned instead of asking the recorder: ${JSON.stringify(counters)}`);
  }
  return run;
}

function succeeded(run: ProcessMeasure, what: string): ProcessMeasure {
  if (run.code !== 0) throw new Error(`hindsight ${what} exited ${run.code}: ${run.stderr}`);
  return run;
}
