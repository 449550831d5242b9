import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KnownProject, Settings } from '../../../electron/history/config/configSchema.js';
import { defaultCopyConcurrency } from '../../../electron/history/store/copyConcurrency.js';
import { cliJson, runCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// The config from the terminal, as real `hindsight` processes: projects, config get/set, and open,
// which registers the folder before it copies anything and takes its settings from config.json.

function setup() {
  const home = tempDir('hindsight-config-cli-');
  const dataDir = join(home, 'data');
  const folder = (name: string, spec: Record<string, string> = { 'a.txt': 'a' }) => {
    const root = join(home, name);
    mkdirSync(root);
    writeTree(root, spec);
    return realpathSync(root);
  };
  const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);
  const json = <T>(...args: string[]) => cliJson<T>([...args, '--data-dir', dataDir]);
  return { home, dataDir, folder, cli, json };
}

function traceOf(file: string): Record<string, number> {
  return JSON.parse(readFileSync(file, 'utf8').trim().split('\n').at(-1)!) as Record<string, number>;
}

describe('hindsight projects and config', () => {
  it('lists the folders open registered, and keeps when each was added across opens', async () => {
    const { folder, cli, json } = setup();
    expect(await json<KnownProject[]>('projects')).toEqual([]);
    const one = folder('one');
    const two = folder('two');
    expect((await cli('open', one)).code).toBe(0);
    expect((await cli('open', two)).code).toBe(0);
    const first = await json<KnownProject[]>('projects');
    expect(first.map((p) => [p.root, p.name, p.lastSeen, p.pinned])).toEqual([
      [one, 'one', 'present', false],
      [two, 'two', 'present', false],
    ]);
    expect(first[0]!.id).toMatch(/^[0-9a-f]{32}$/);
    expect((await cli('open', one)).code).toBe(0);
    const again = await json<KnownProject[]>('projects');
    expect(again[0]!.addedAt).toBe(first[0]!.addedAt);
    expect(again[0]!.lastOpenedAt).toBeGreaterThanOrEqual(first[0]!.lastOpenedAt);
    expect(again).toHaveLength(2);
  });

  it('gets and sets settings, a value as JSON when it parses and as text otherwise', async () => {
    const { cli, json } = setup();
    expect(await json<Settings>('config', 'get')).toMatchObject({
      quietWindowMs: 2000,
      copyConcurrency: defaultCopyConcurrency(),
      backgroundClose: 'auto',
      excludePatterns: [],
    });
    expect((await cli('config', 'set', 'quietWindowMs', '500')).code).toBe(0);
    expect((await cli('config', 'set', 'backgroundClose', 'off')).code).toBe(0);
    expect((await cli('config', 'set', 'excludePatterns', '["*.log","build/"]')).code).toBe(0);
    const got = await cli('config', 'get', 'quietWindowMs');
    expect([got.code, got.stdout.toString().trim()]).toEqual([0, '500']);
    expect(await json<Settings>('config', 'get')).toMatchObject({ quietWindowMs: 500, backgroundClose: 'off', excludePatterns: ['*.log', 'build/'] });
  });

  it('refuses a bad value or an unknown key with exit 1 and a clear message, changing nothing', async () => {
    const { cli, dataDir } = setup();
    await cli('config', 'set', 'copyConcurrency', '2');
    const before = readFileSync(join(dataDir, 'config.json'));
    const bad = await cli('config', 'set', 'copyConcurrency', '0');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('0 is not a valid copyConcurrency');
    const word = await cli('config', 'set', 'quietWindowMs', 'soon');
    expect([word.code, word.stderr]).toEqual([1, expect.stringContaining('"soon" is not a valid quietWindowMs')]);
    const unknown = await cli('config', 'set', 'colour', 'red');
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringContaining('There is no setting "colour"')]);
    expect((await cli('config', 'get', 'colour')).code).toBe(1);
    expect((await cli('config', 'set', 'quietWindowMs')).code).toBe(2);
    expect(readFileSync(join(dataDir, 'config.json')).equals(before)).toBe(true);
  });

  it('open with a corrupt config fails with the clear error and changes nothing', async () => {
    const { folder, cli, dataDir, json } = setup();
    mkdirSync(dataDir);
    const bad = '{"projects": [ {"id": oops';
    writeFileSync(join(dataDir, 'config.json'), bad);
    const result = await cli('open', folder('one'));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('cannot be used: it is not valid JSON');
    const backup = readdirSync(dataDir).find((n) => n.startsWith('config.json.corrupt-'))!;
    expect(result.stderr).toContain(join(dataDir, backup));
    expect(readFileSync(join(dataDir, 'config.json'), 'utf8')).toBe(bad);
    expect(existsSync(join(dataDir, 'projects'))).toBe(false);
    expect(readdirSync(dataDir).sort()).toEqual(['config.json', backup].sort());
    const listed = await cli('projects', '--json');
    expect([listed.code, listed.stderr]).toEqual([1, expect.stringContaining(backup)]);
    await expect(json('config', 'get')).rejects.toThrow(/exited 1/);
  });

  it('open copies with the exclude patterns and the copy concurrency of the settings', async () => {
    const { home, folder, cli, json } = setup();
    const files = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}.txt`, `file ${i} `.repeat(50)]));
    const root = folder('big', { ...files, 'debug.log': 'noise', 'keep.md': 'kept' });
    await cli('config', 'set', 'excludePatterns', '["*.log"]');
    await cli('config', 'set', 'copyConcurrency', '1');
    const trace = join(home, 'trace.jsonl');
    const opened = await runCli(['open', root, '--data-dir', join(home, 'data')], { HINDSIGHT_TRACE: trace });
    expect(opened.code).toBe(0);
    expect(traceOf(trace)['copy.maxInFlight']).toBe(1);
    const listed = await json<{ path: string }[]>('files', root);
    expect(listed.map((f) => f.path)).not.toContain('debug.log');
    expect(listed.map((f) => f.path)).toContain('keep.md');
    expect(listed).toHaveLength(301);
  });

  it('projects --check records a folder that is gone', async () => {
    const { folder, cli, json } = setup();
    const one = folder('one');
    await cli('open', one);
    const { rmSync } = await import('node:fs');
    rmSync(one, { recursive: true });
    expect((await json<KnownProject[]>('projects'))[0]!.lastSeen).toBe('present');
    expect((await json<KnownProject[]>('projects', '--check'))[0]!.lastSeen).toBe('gone');
    expect((await json<KnownProject[]>('projects'))[0]!.lastSeen).toBe('gone');
  });
});
