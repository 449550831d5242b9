import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { sharedCopyPool } from '../../../electron/history/store/copyPool.js';
import { ensureSeedFixture } from '../fixtures/generateFixture.js';
import { cpTool, hindsightTool } from '../firstCopy/copyTools.js';
import { measureProcess, measureShell, type ProcessMeasure } from '../measureProcess.js';
import { dropPageCache, type CacheState } from '../pageCache.js';
import { median } from '../stats.js';
import type { SizeFigures } from './scaleFigures.js';

// One folder size of the scale benchmark: the seed shape with `files` files (made once under the
// fixtures folder, written file by file), and a git copy of it with everything committed. Every
// round copies into fresh destinations (ext4 creates files slowly right after a large delete, so
// the old ones are removed only at the end), with the page cache dropped before each timed copy
// where this process may. The last round's history is the one reopened, listed and searched.

export interface ScaleOptions {
  cli: string;
  fixtures: string;
  scratch: string;
  rounds: number;
  /** A file whose versions are asked (project-relative), present in every seed shape. */
  versionsOf?: string;
}

export interface SizeRun {
  figures: SizeFigures;
  cache: CacheState;
}

const SEED_EXTRA_FILES = 5;

export async function measureSize(files: number, options: ScaleOptions): Promise<SizeRun> {
  const scripts = files - SEED_EXTRA_FILES;
  const folder = ensureSeedFixture(options.fixtures, scripts, { git: false });
  const gitFolder = ensureSeedFixture(options.fixtures, scripts, { git: true });
  const base = join(options.scratch, `seed-${files}`);
  rmSync(base, { recursive: true, force: true });
  mkdirSync(base, { recursive: true });
  try {
    const hindsight = hindsightTool(options.cli);
    const copies: ProcessMeasure[] = [];
    const cps: ProcessMeasure[] = [];
    let cache: CacheState = 'warm';
    let dataDir = '';
    for (let round = 0; round < options.rounds; round++) {
      const scratch = join(base, `round-${round}`);
      mkdirSync(scratch, { recursive: true });
      cache = dropPageCache();
      copies.push(succeeded(await hindsight.run(folder, scratch), 'hindsight open'));
      dropPageCache();
      cps.push(succeeded(await cpTool.run(folder, scratch), 'cp -a'));
      dataDir = join(scratch, 'data');
    }
    const viewer = await inProcess(dataDir, folder, options.versionsOf ?? 'bin/run.sh');
    const gitStatus = succeeded(await measureProcess('git', ['status', '--porcelain'], { cwd: gitFolder }), 'git status');
    const cli = (args: string) => measureShell(`${quote(process.execPath)} ${quote(options.cli)} ${args} --data-dir ${quote(dataDir)} > /dev/null`);
    const filesRun = succeeded(await cli(`files ${quote(folder)}`), 'hindsight files');
    const logRun = succeeded(await cli(`log ${quote(folder)}`), 'hindsight log');
    const searchRun = succeeded(await cli(`search ${quote(folder)} history --limit 500`), 'hindsight search');
    return {
      cache,
      figures: {
        files,
        firstCopyMs: median(copies.map((m) => m.wallMs)),
        cpMs: median(cps.map((m) => m.wallMs)),
        firstCopyRssKb: Math.max(...copies.map((m) => m.maxRssKb)),
        reopenMs: viewer.reopenMs,
        gitStatusMs: gitStatus.wallMs,
        firstTreePageMs: viewer.firstTreePageMs,
        firstVersionsMs: viewer.firstVersionsMs,
        filesMs: filesRun.wallMs,
        filesRssKb: filesRun.maxRssKb,
        logMs: logRun.wallMs,
        logRssKb: logRun.maxRssKb,
        searchMs: searchRun.wallMs,
        searchRssKb: searchRun.maxRssKb,
      },
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/**
 * The calls the app makes, in this process with the engine of this build: opening the unchanged
 * project again (a rescan that finds nothing), then the viewer's first paint (the root's level)
 * and the first page of a file's versions, each timed alone.
 */
async function inProcess(dataDir: string, folder: string, path: string): Promise<{ reopenMs: number; firstTreePageMs: number; firstVersionsMs: number }> {
  const engine = new HistoryEngine(dataDir);
  try {
    let started = performance.now();
    const opened = await engine.open(folder);
    const reopenMs = performance.now() - started;
    if (opened.firstCopy) throw new Error(`${folder}: expected a reopen, not a first copy.`);
    started = performance.now();
    engine.folderLevel(opened.projectId, '');
    const firstTreePageMs = performance.now() - started;
    started = performance.now();
    const versions = engine.versions(opened.projectId, path, { limit: 50 });
    const firstVersionsMs = performance.now() - started;
    if (versions.length === 0) throw new Error(`${path} has no versions in ${folder}.`);
    return { reopenMs, firstTreePageMs, firstVersionsMs };
  } finally {
    await engine.unwatchAll();
    engine.close();
    await sharedCopyPool().close();
  }
}

function succeeded(measure: ProcessMeasure, what: string): ProcessMeasure {
  if (measure.code !== 0) throw new Error(`${what} exited ${measure.code}: ${measure.stderr.trim().slice(0, 500)}`);
  return measure;
}

function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
