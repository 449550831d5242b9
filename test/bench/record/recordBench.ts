import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { RACY_WINDOW_MS } from '../../../electron/history/versions/rescan.js';
import { ensureSeedFixture } from '../fixtures/generateFixture.js';
import { machineInfo } from '../firstCopy/machineInfo.js';
import { measureProcess } from '../measureProcess.js';
import { catchUp } from './catchUp.js';
import { checkoutStorm } from './checkoutStorm.js';
import { editLatency } from './editLatency.js';
import { figureTable, seconds, sleep, type Figure } from './figures.js';
import { idleCost } from './idleCost.js';
import { reopenBeside } from './reopenBeside.js';
import { RecorderProcess } from './recorderProcess.js';
import { ensureStormFixture } from './stormFixture.js';

// `npm run bench:record -- [--quick] [--projects N] [--files N] [--big-files N] [--idle-seconds N]
//   [--settle-seconds N] [--edits N] [--quiet-ms N] [--storm-files N] [--rounds N] [--trace-seconds N] [--fixtures DIR] [--scratch DIR]
//   [--cases idle,edits,catchup,storm,reopen]`
// Issue 29's performance targets, through the built CLI as real child processes:
//   1. idle: `watch --all` over N projects of --files files (the first of --big-files), CPU, RSS,
//      read calls, wake-ups and writes (into any history.db, into the data folder) of the recorder
//      over --idle-seconds (issue 45 measures minutes 2-12: 600), from --settle-seconds after the last
//      project reported recording (the settle reported apart);
//   2. edit latency: --edits edits spread over them, write to version line minus the quiet window;
//   3. checkout storm: `git checkout` changing --storm-files files under `watch --all`: groups,
//      peak RSS growth, time against `hindsight open` rescanning the same change;
//   4. catch-up: `watch --all` starting over the N unchanged projects against N `git status`;
//   5. reopen: `open` of the big project while `watch --all` runs against `hindsight --help` (issue 45).
// The projects are git repositories (seed shapes, committed), copied into the scratch folder and
// opened before anything is measured. --quick makes everything small: a dry run of the rig, whose
// figures mean nothing. --cases runs only the cases named (idle and edits share one recorder).

const CASES = ['idle', 'edits', 'catchup', 'storm', 'reopen'] as const;

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    projects: { type: 'string' },
    files: { type: 'string' },
    'big-files': { type: 'string' },
    'idle-seconds': { type: 'string' },
    'settle-seconds': { type: 'string' },
    edits: { type: 'string' },
    'quiet-ms': { type: 'string' },
    'storm-files': { type: 'string' },
    rounds: { type: 'string' },
    cases: { type: 'string', default: CASES.join(',') },
    'trace-seconds': { type: 'string' },
    fixtures: { type: 'string', default: '.bench/fixtures' },
    scratch: { type: 'string', default: '.bench/scratch/record' },
    cli: { type: 'string', default: fileURLToPath(new URL('./cli/hindsight.js', import.meta.url)) },
  },
});

// The settle outlasts the quiet a project's search index build waits for before it starts
// (registry/backgroundWork.ts, INDEX_AFTER_QUIET_MS: 10 s), so the builds after the first copies
// run in the settle, not in the idle window.
const FULL = {
  projects: 10,
  files: 5000,
  'big-files': 50005,
  'idle-seconds': 60,
  'settle-seconds': 15,
  edits: 100,
  'quiet-ms': 500,
  'storm-files': 20000,
  rounds: 3,
  'trace-seconds': 10,
};
const QUICK = {
  projects: 3,
  files: 505,
  'big-files': 2005,
  'idle-seconds': 10,
  'settle-seconds': 13,
  edits: 12,
  'quiet-ms': 500,
  'storm-files': 2005,
  rounds: 1,
  'trace-seconds': 5,
};

function setting(name: keyof typeof FULL, least: number): number {
  const given = values[name];
  const value = given === undefined ? (values.quick ? QUICK : FULL)[name] : Number(given);
  if (!Number.isInteger(value) || value < least) throw new Error(`--${name} takes a whole number of at least ${least}.`);
  return value;
}

const projects = setting('projects', 1);
const files = setting('files', 6);
const bigFiles = setting('big-files', 6);
const idleSeconds = setting('idle-seconds', 1);
const settleSeconds = setting('settle-seconds', 0);
const edits = setting('edits', 1);
const quietMs = setting('quiet-ms', 1);
const stormFiles = setting('storm-files', 6);
const rounds = setting('rounds', 1);
const traceSeconds = setting('trace-seconds', 0);
const cases = new Set(values.cases.split(',').map((c) => c.trim()));
for (const name of cases) if (!(CASES as readonly string[]).includes(name)) throw new Error(`--cases takes some of ${CASES.join(',')}; not ${name}.`);
const cli = resolve(values.cli);
const fixtures = resolve(values.fixtures);
const scratch = resolve(values.scratch);

const round2 = (n: number) => Math.round(n * 100) / 100;
const note = (line: string) => process.stderr.write(`${line}\n`);
const hs = async (...args: string[]) => {
  const run = await measureProcess(process.execPath, [cli, ...args]);
  if (run.code !== 0) throw new Error(`hindsight ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return run;
};

/** A fresh copy of a fixture in the scratch folder (git's index refreshed, not timed). */
function copyOf(fixture: string, name: string): string {
  const dir = join(scratch, name);
  execFileSync('cp', ['-a', fixture, dir]);
  execFileSync('git', ['status', '--porcelain'], { cwd: dir, stdio: 'ignore' });
  return realpathSync(dir);
}

const started = new Date().toISOString();
console.log(
  `record benchmark${values.quick ? ' (--quick: a dry run, figures not final)' : ''}: ${projects} projects of ${files} files (the first of ${bigFiles}), idle ${idleSeconds} s, ${edits} edits, quiet window ${quietMs} ms, storm of ${stormFiles} files, ${rounds} catch-up rounds; load average at start ${loadavg().map(round2).join(' ')}`,
);
mkdirSync(fixtures, { recursive: true });
console.log(JSON.stringify(machineInfo(fixtures)));
rmSync(scratch, { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });

// Not timed: the fixtures, their copies and their first copies.
note('making the fixtures and first copies (not timed)...');
const small = ensureSeedFixture(fixtures, files - 5, { git: true });
const big = ensureSeedFixture(fixtures, bigFiles - 5, { git: true });
const dataDir = join(scratch, 'data');
const roots: string[] = [];
for (let i = 1; i <= projects; i++) {
  const root = copyOf(i === 1 ? big : small, `project-${i}`);
  await hs('open', root, '--yes', '--data-dir', dataDir);
  roots.push(root);
}
const stormCopies = cases.has('storm')
  ? [1, 2].map((i) => ({ root: copyOf(ensureStormFixture(fixtures, stormFiles), `storm-${i}`), dataDir: join(scratch, `storm-data-${i}`) }))
  : [];
for (const copy of stormCopies) await hs('open', copy.root, '--yes', '--data-dir', copy.dataDir);

// A file changed within the racy window of a scan is hashed again by the next one (the racy-clean
// rule): the copies were made seconds ago, which a user's folders were not, so the recorder starts
// once the last copy is older than that window and its start's rescans find every file clean.
await sleep(RACY_WINDOW_MS + 1000);

const figures: Figure[] = [];
if (cases.has('idle') || cases.has('edits')) {
  note('idle and edits...');
  const recorder = new RecorderProcess(cli, dataDir, quietMs);
  try {
    const { at, roots: byId, rescanning } = await recorder.allRecording(projects);
    figures.push({
      case: 'first start',
      figure: `watch --all start to ${projects} projects recording (after their first copies)`,
      value: seconds(at - recorder.startedAt),
      target: '',
      met: null,
    });
    // Not the recorder's cost: the machine's watch limit, shared with every other process of the user.
    if (rescanning.length > 0)
      figures.push({
        case: 'first start',
        figure: 'projects rescanned periodically: the OS refused their watch (raise fs.inotify.max_user_watches)',
        value: String(rescanning.length),
        target: '0',
        met: false,
      });
    if (cases.has('idle')) figures.push(...(await idleCost(recorder.pid, dataDir, settleSeconds, idleSeconds, traceSeconds)));
    const watched = [...byId].map(([projectId, root]) => ({ projectId, root }));
    if (cases.has('edits')) figures.push(...(await editLatency(recorder, watched, edits, quietMs)));
  } finally {
    const code = await recorder.stop();
    if (code !== 0) note(`watch --all exited ${code}: ${recorder.errors.slice(-2000)}`);
  }
  // The edits committed, so both sides of the catch-up see unchanged folders.
  if (cases.has('edits'))
    for (const root of roots)
      execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '--quiet', '-am', 'edits'], {
        cwd: root,
        stdio: 'ignore',
      });
}

if (cases.has('catchup')) {
  note('catch-up...');
  figures.push(...(await catchUp(cli, dataDir, roots, rounds, quietMs)));
}
if (cases.has('reopen')) {
  note('open beside watch --all...');
  figures.push(...(await reopenBeside(cli, dataDir, roots[0]!, projects, rounds, quietMs)));
}
if (cases.has('storm')) {
  note('checkout storm...');
  figures.push(...(await checkoutStorm(cli, stormCopies[0]!, stormCopies[1]!, stormFiles, quietMs)));
}
rmSync(scratch, { recursive: true, force: true });
console.log(`\n${started}, load average at end ${loadavg().map(round2).join(' ')}${values.quick ? '; --quick: a dry run, these figures are not final' : ''}\n`);
console.log(figureTable(figures));
