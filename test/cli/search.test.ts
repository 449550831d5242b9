import { describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenResult, SearchResult } from '../../shared/contract.js';
import { blobsDirOf, projectStoreDir } from '../../electron/history/store/storeLayout.js';
import { blobFile } from '../helpers/storedBlob.js';
import { parseSince } from '../../electron/cli/sinceTime.js';
import { cliJson, runCli } from '../helpers/runCli.js';
import { lastTrace } from '../helpers/slowSearch.js';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import { tempDir } from '../helpers/tempDirs.js';
import { sha256, writeTree } from '../helpers/writeTree.js';

// `hindsight search FOLDER QUERY [--path GLOB] [--regex] [--case] [--since TIME] [--json]` as a
// real process: the JSON shape the issue spells out, the human form, and bad input refused.

async function recorded() {
  const root = tempDir();
  writeTree(root, { 'src/app.ts': 'const apiKey = "old";\nfunction boot() {}\n', 'README.md': 'Boot the app\n' });
  const dataDir = tempDir('hindsight-data-');
  const run = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);
  const json = <T>(...args: string[]) => cliJson<T>([...args, '--data-dir', dataDir]);
  await json('open', root);
  writeFileSync(join(root, 'src/app.ts'), 'const apiKey = process.env.KEY;\nfunction boot() {}\n');
  await json('open', root);
  return { root, run, json, dataDir };
}

describe('hindsight search', () => {
  it('answers one entry per file and content, newest first, in the shape of the contract', async () => {
    const { root, json } = await recorded();
    const result = await json<SearchResult>('search', root, 'apikey');
    expect(Object.keys(result).sort()).toEqual(['index', 'indexed', 'results', 'truncated', 'unreadable']);
    expect(result.unreadable).toEqual({ versions: 0, files: [] });
    expect(Object.keys(result.index).sort()).toEqual(['done', 'indexedBlobs', 'totalBlobs']);
    expect(result.indexed).toBe(true);
    expect(result.results).toHaveLength(2);
    for (const hit of result.results) {
      expect(Object.keys(hit).sort()).toEqual(['firstSeen', 'lastSeen', 'matches', 'path', 'stillPresent', 'versions']);
      for (const v of hit.versions) expect(Object.keys(v).sort()).toEqual(['at', 'snapshotId', 'versionId']);
      for (const m of hit.matches) expect(Object.keys(m).sort()).toEqual(['column', 'length', 'line', 'preview', 'previewFrom', 'previewTo']);
    }
    const [newer, older] = result.results;
    expect(newer!.lastSeen).toBeGreaterThanOrEqual(older!.lastSeen);
    expect(newer!.matches).toEqual([{ line: 1, column: 7, length: 6, preview: 'const apiKey = process.env.KEY;', previewFrom: 6, previewTo: 12 }]);
    expect(newer!.stillPresent).toBe(true);

    const old = await json<SearchResult>('search', root, '"old"');
    expect(old.results.map((h) => [h.path, h.stillPresent])).toEqual([['src/app.ts', false]]);
  });

  it('writes its --json answer as the search thread made its text: the same as the result stringified', async () => {
    const { root, dataDir } = await recorded();
    const trace = join(tempDir(), 'trace');
    const run = await runCli(['search', root, 'boot', '--json', '--data-dir', dataDir], { HINDSIGHT_TRACE: trace });
    expect(run.code).toBe(0);
    // The text crossed from the thread as one string: no result object made on the CLI's thread.
    expect(lastTrace(trace)['search.answersAsJson']).toBe(1);
    const engine = new HistoryEngine(dataDir);
    try {
      const again = await engine.search(engine.locate(root), { query: 'boot', regex: false, caseSensitive: false, limit: 500 });
      expect(run.stdout.toString('utf8')).toBe(`${JSON.stringify(again)}\n`);
      expect(again.results).toHaveLength(3);
    } finally {
      engine.close();
    }
  });

  it('takes --path, --regex, --case and --since', async () => {
    const { root, json } = await recorded();
    const paths = async (...args: string[]) => (await json<SearchResult>('search', root, ...args)).results.map((h) => h.path);
    expect((await paths('boot')).sort()).toEqual(['README.md', 'src/app.ts', 'src/app.ts']);
    expect(await paths('boot', '--path', '*.md')).toEqual(['README.md']);
    expect(await paths('Boot', '--case')).toEqual(['README.md']);
    expect(await paths('apiKey = [a-z.]+', '--regex')).toEqual(['src/app.ts']);
    expect(await paths('boot', '--since', '1h', '--path', 'README.md')).toEqual(['README.md']);
    expect(await paths('boot', '--since', '2999-01-01')).toEqual([]);
  });

  it("matches --path '**/ctx.py' against whole names: not tests/test_appctx.py nor src/xctx.py", async () => {
    const { root, json } = await recorded();
    writeTree(root, { 'tests/test_appctx.py': 'boot\n', 'src/xctx.py': 'boot\n', 'src/ctx.py': 'boot\n', 'ctx.py': 'boot\n' });
    await json('open', root);
    const found = await json<SearchResult>('search', root, 'boot', '--path', '**/ctx.py');
    expect(found.results.map((h) => h.path).sort()).toEqual(['ctx.py', 'src/ctx.py']);
  });

  it('prints hits, their lines and whether the file still has the text', async () => {
    const { root, run } = await recorded();
    const out = await run('search', root, 'old');
    expect(out.code).toBe(0);
    const text = out.stdout.toString('utf8');
    expect(text).toMatch(/^src\/app\.ts {2}\(1 version, seen .+; newest: --version \d+\) {2}\[gone from the current file\]$/m);
    expect(text).toContain('  1:17: const apiKey = "old";');
    expect(text).toContain('Searched the index');
    const short = await run('search', root, 'ap');
    expect(short.stdout.toString('utf8')).toContain('Read every version');
  });

  it('prints a tab of a found line as a tab, and a control character that would act on the terminal as \\xNN', async () => {
    const { root, run, json } = await recorded();
    writeFileSync(join(root, 'tabs.c'), '\t\tstrbuf_addf(&sb, "%s", name);\x1b]0;title\x07 back\bspace\r\n');
    await json('open', root);
    const text = (await run('search', root, 'strbuf_addf')).stdout.toString('utf8');
    expect(text).toContain('  1:3: \t\tstrbuf_addf(&sb, "%s", name);\\x1B]0;title\\x07 back\\x08space\n');
    expect(text).not.toContain('\\x09');
  });

  it('counts and names the versions it could not read, in --json and in its human form', async () => {
    const { root, run, json, dataDir } = await recorded();
    const { projectId } = await json<OpenResult>('open', root);
    const blobs = blobsDirOf(projectStoreDir(dataDir, projectId));
    rmSync(blobFile(blobs, sha256('const apiKey = "old";\nfunction boot() {}\n')));
    const result = await json<SearchResult>('search', root, 'apiKey');
    expect(result.results.map((h) => h.path)).toEqual(['src/app.ts']);
    expect(result.unreadable.versions).toBe(1);
    expect(result.unreadable.files.map((f) => [f.path, f.versions.length])).toEqual([['src/app.ts', 1]]);
    const id = result.unreadable.files[0]!.versions[0]!.versionId;
    const text = (await run('search', root, '"old"')).stdout.toString('utf8');
    expect(text).toContain('No version read holds that text.\n');
    expect(text).toContain(`Skipped 1 version whose stored contents are missing or damaged (hindsight verify says more):\n  src/app.ts  (version ${id})\n`);
  });

  it('refuses bad input with a clear message and exit 2, and a broken regex with exit 1', async () => {
    const { root, run } = await recorded();
    const missing = await run('search', root);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing QUERY');
    const since = await run('search', root, 'x', '--since', 'last tuesday');
    expect(since.code).toBe(2);
    expect(since.stderr).toContain('--since takes a date');
    const regex = await run('search', root, '(', '--regex');
    expect(regex.code).toBe(1);
    expect(regex.stderr).toContain('The regular expression is not valid');
  });

  it('reads --since as a time ago or a local date', () => {
    const now = Date.UTC(2026, 2, 14, 12, 0, 0);
    expect(parseSince('30m', now)).toBe(now - 30 * 60_000);
    expect(parseSince('2d', now)).toBe(now - 2 * 86_400_000);
    expect(parseSince('2026-03-01', now)).toBe(new Date(2026, 2, 1).getTime());
    expect(parseSince('2026-03-01T09:30:00Z', now)).toBe(Date.UTC(2026, 2, 1, 9, 30));
    expect(() => parseSince('soon', now)).toThrow(/--since takes/);
  });
});
