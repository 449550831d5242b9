import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SearchResult } from '../../shared/contract.js';
import { PREVIEW_CHARS } from '../../shared/textSearch.js';
import { parseSince } from '../../electron/cli/sinceTime.js';
import { cliJson, finished, runCli, startCli } from '../helpers/runCli.js';
import { lastTrace, SLOW_PATTERN, slowProject } from '../helpers/slowSearch.js';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';
import { until } from '../helpers/until.js';

// `hindsight search` as a real process never hangs: a catastrophic regex over a long line, a glob
// of many **/ against a deep path, a pattern no automaton runs (refused, saying why), a stop by
// SIGTERM in the middle of a long search, and values of --since and --limit that mean nothing.

describe('hindsight search never hangs', () => {
  it('answers (a|aa)*b over a 50 KB file of a, and finds it where it is', async () => {
    const root = tempDir();
    writeTree(root, { 'as.txt': 'a'.repeat(50 * 1024), 'hit.txt': `${'a'.repeat(50 * 1024)}b` });
    const dataDir = tempDir('hindsight-data-');
    await cliJson(['open', root, '--data-dir', dataDir]);
    const result = await cliJson<SearchResult>(['search', root, '(a|aa)*b', '--regex', '--data-dir', dataDir]);
    expect(result.results.map((hit) => [hit.path, hit.matches])).toEqual([
      ['hit.txt', [{ line: 1, column: 1, length: 50 * 1024 + 1, preview: expect.any(String), previewFrom: 0, previewTo: PREVIEW_CHARS }]],
    ]);
  });

  it('answers a --path of many **/ against a deep path', async () => {
    const root = tempDir();
    const deep = `${'d/'.repeat(60)}x.txt`;
    writeTree(root, { [deep]: 'needle\n', 'y.txt': 'needle\n' });
    const dataDir = tempDir('hindsight-data-');
    await cliJson(['open', root, '--data-dir', dataDir]);
    const missed = await cliJson<SearchResult>(['search', root, 'needle', '--path', `${'**/'.repeat(30)}z.txt`, '--data-dir', dataDir]);
    expect(missed.results).toEqual([]);
    const found = await cliJson<SearchResult>(['search', root, 'needle', '--path', `${'**/'.repeat(30)}x.txt`, '--data-dir', dataDir]);
    expect(found.results.map((hit) => hit.path)).toEqual([deep]);
  });

  it('refuses a pattern that cannot run in linear time, saying what to simplify', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'abab\n' });
    const dataDir = tempDir('hindsight-data-');
    await cliJson(['open', root, '--data-dir', dataDir]);
    const refused = await runCli(['search', root, '(ab)\\1', '--regex', '--data-dir', dataDir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('This pattern is too costly to search; simplify it (backreferences are not supported).');
  });

  it('stops at once on SIGTERM in the middle of a long search: exit 143, the search thread ended, nothing left behind', async () => {
    const root = slowProject();
    const dataDir = tempDir('hindsight-data-');
    await cliJson(['open', root, '--data-dir', dataDir]);
    const before = listing(dataDir);
    const trace = join(tempDir(), 'trace.jsonl');
    const child = startCli(['search', root, SLOW_PATTERN, '--regex', '--data-dir', dataDir], { HINDSIGHT_TRACE: trace });
    const done = finished(child);
    // In the middle: the process has spent more CPU than a search's start takes (counted in ticks).
    await untilCpuTicks(child.pid!, 150);
    child.kill('SIGTERM');
    const result = await done;
    expect(result.code).toBe(143);
    expect(result.stderr).toContain('stopped by SIGTERM');
    expect(result.stderr).not.toContain('did not stop');
    expect(lastTrace(trace)).toMatchObject({ 'search.threads': 1, 'search.cancelled': 1 });
    // The thread's counters never came back: it was ended mid-search, not finished.
    expect(lastTrace(trace)['search.blobScans']).toBeUndefined();
    expect(listing(dataDir)).toEqual(before);
    // The history answers the next search as before.
    expect((await cliJson<SearchResult>(['search', root, '0', '--data-dir', dataDir])).results.map((hit) => hit.path)).toEqual(['slow/f0.txt']);
  });

  it('refuses --since of a date that does not exist and --limit 0 as usage errors', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'x\n' });
    const dataDir = tempDir('hindsight-data-');
    for (const since of ['2026-13-45', '2026-02-30', '2026-12-31T24:00', '2026-00-10']) {
      const refused = await runCli(['search', root, 'x', '--since', since, '--data-dir', dataDir]);
      expect(refused.code, since).toBe(2);
      expect(refused.stderr).toContain(`--since takes a date (2026-03-14, 2026-03-14T09:30) or a time ago (30m, 2h, 7d), not ${since}`);
    }
    const zero = await runCli(['search', root, 'x', '--limit', '0', '--data-dir', dataDir]);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--limit takes a whole number of 1 or more');
    expect(parseSince('2024-02-29')).toBe(new Date(2024, 1, 29).getTime());
    expect(parseSince('2026-03-14 09:30')).toBe(new Date(2026, 2, 14, 9, 30).getTime());
    expect(parseSince('2026-03-14T09:30:00+01:00')).toBe(Date.UTC(2026, 2, 14, 8, 30));
  });
});

/** Every file and folder under `dir` (a run that leaves nothing behind leaves this as it was). */
function listing(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((name) => !name.endsWith('-wal') && !name.endsWith('-shm')).sort();
}

/** Waits until the process has used `ticks` clock ticks of CPU (user and system, every thread). */
async function untilCpuTicks(pid: number, ticks: number): Promise<void> {
  const spent = () => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]) >= ticks;
  };
  await until(spent, { what: `process ${pid} to spend ${ticks} ticks of CPU` });
}
