import { readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HindsightError } from '../../../shared/errors.js';
import { ConfigStore, type FrozenConfig } from '../../../electron/history/config/configStore.js';
import { setSetting } from '../../../electron/history/config/projectEdits.js';
import { configFolder, growth, onDisk, project, readerEveryTurn, writeConfig } from './configFixture.js';

// The snapshot cache of config.json: what a read may reuse, what an edit keeps, and what every
// kind of outside change does to it. Parse counts are exact (the config.parses counter).

/** A whole second, so utimes sets mtime exactly (a Date or fractional seconds loses nanoseconds). */
const SECOND = 1_700_000_000;

describe('config snapshot', () => {
  it('serves a frozen snapshot shared by readers without reading the file again', async () => {
    const reads: string[] = [];
    const { store } = configFolder(3, { io: { readFileSync: (p) => (reads.push(p), readFileSync(p)) } });
    const { by, result: first } = await growth('config.parses', () => store.loadConfig());
    expect(by).toBe(1);
    expect(store.loadConfig()).toBe(first);
    expect(reads).toHaveLength(1);
    expect(Object.isFrozen(first.config.projects[0])).toBe(true);
    expect(() => {
      (first.config.settings as { quietWindowMs: number }).quietWindowMs = 1;
    }).toThrow(TypeError);
  });

  it('parses config.json once per edit while a reader runs on every event-loop turn', async () => {
    const { store } = configFolder(200);
    store.loadConfig();
    for (const value of [3000, 4000, 5000]) {
      const { by, result } = await growth('config.parses', () =>
        readerEveryTurn(
          () => store.loadConfig(),
          () => store.editConfig(setSetting('quietWindowMs', value)),
        ),
      );
      expect(result.turns).toBeGreaterThan(2);
      // The edit builds on the snapshot (same file, ctime included); the one parse there can be is
      // a reader that runs after the rename lands on disk and before its callback files the saved
      // config. Whether a turn falls in that gap is the scheduler's (none on some runs): at most one.
      expect(by).toBeLessThanOrEqual(1);
    }
    // And the snapshot the readers built is the one kept: further reads parse nothing.
    const { by } = await growth('config.parses', () => store.loadConfig());
    expect(by).toBe(0);
    expect(store.loadConfig().config.settings.quietWindowMs).toBe(5000);
  });

  it('reads, edits and reads again with one parse: the edit reuses the snapshot and files what it saved', async () => {
    const reads: string[] = [];
    const { store, path } = configFolder(20, { io: { readFile: async (p) => (reads.push(p), readFileSync(p)) } });
    const { by } = await growth('config.parses', async () => {
      store.loadConfig();
      await store.editConfig(setSetting('quietWindowMs', 3000));
      return store.loadConfig();
    });
    expect(by).toBe(1);
    expect(reads).toHaveLength(0);
    expect(store.loadConfig().config.settings.quietWindowMs).toBe(3000);
    expect(onDisk(path).settings.quietWindowMs).toBe(3000);
    expect(Object.isFrozen(store.loadConfig().config.settings)).toBe(true);
  });

  it('serves the committed snapshot, never the transform object, to readers during an edit', async () => {
    const { store } = configFolder(50);
    const committed = store.loadConfig().config;
    let made: FrozenConfig | undefined;
    const seen: FrozenConfig[] = [];
    await readerEveryTurn(
      () => seen.push(store.loadConfig().config),
      () =>
        store.editConfig((config) => {
          made = { ...config, settings: { ...config.settings, quietWindowMs: 7777 } } as FrozenConfig;
          return made;
        }),
    );
    expect(made).toBeDefined();
    const before = seen.filter((c) => c.settings.quietWindowMs === 1000);
    const after = seen.filter((c) => c.settings.quietWindowMs === 7777);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    expect(before.length + after.length).toBe(seen.length);
    // Until the rename, the very object readers had before the edit; after it, what was parsed from disk.
    for (const config of before) expect(config).toBe(committed);
    for (const config of after) {
      expect(config).not.toBe(made);
      expect(Object.isFrozen(config.settings)).toBe(true);
    }
  });

  it('accepts the next edit after the edit read fails once on a warm snapshot', async () => {
    let failNext = true;
    const { store, path } = configFolder(3, {
      io: {
        readFile: async (p) => {
          if (failNext) {
            failNext = false;
            throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
          }
          return readFileSync(p);
        },
      },
    });
    store.loadConfig();
    // Touched in place, so the edit cannot reuse the snapshot and reads the file.
    utimesSync(path, SECOND, SECOND);
    const bytes = readFileSync(path);
    await expect(store.editConfig(setSetting('quietWindowMs', 2500))).rejects.toMatchObject({ code: 'CONFIG_UNREADABLE' });
    expect(readFileSync(path).equals(bytes)).toBe(true);
    // Same store, file untouched: the next edit reads again and succeeds.
    await store.editConfig(setSetting('quietWindowMs', 2500));
    expect(onDisk(path).settings.quietWindowMs).toBe(2500);
    expect(store.loadConfig().config.settings.quietWindowMs).toBe(2500);
  });

  it('drops the snapshot when a save fails, and leaves the file and no temp behind', async () => {
    const { store, path, dir } = configFolder(3, {
      io: {
        rename: async () => {
          throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        },
      },
    });
    store.loadConfig();
    const bytes = readFileSync(path);
    const failed = await store.editConfig(setSetting('quietWindowMs', 9)).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(HindsightError);
    expect((failed as HindsightError).code).toBe('DISK_FULL');
    expect(readFileSync(path).equals(bytes)).toBe(true);
    const { by, result } = await growth('config.parses', () => store.loadConfig());
    expect(by).toBe(1);
    expect(result.config.settings.quietWindowMs).toBe(1000);
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(dir).sort()).toEqual(['config.json']);
  });

  it('sees an external atomic replacement with the same size and mtime (new inode)', () => {
    const { store, path, dir } = configFolder(3);
    utimesSync(path, SECOND, SECOND);
    expect(store.loadConfig().config.settings.quietWindowMs).toBe(1000);
    const text = readFileSync(path, 'utf8').replace('"quietWindowMs": 1000', '"quietWindowMs": 2000');
    const old = statSync(path);
    writeFileSync(join(dir, 'other.tmp'), text);
    utimesSync(join(dir, 'other.tmp'), SECOND, SECOND);
    renameSync(join(dir, 'other.tmp'), path);
    const now = statSync(path);
    expect(now.size).toBe(old.size);
    expect(now.mtimeMs).toBe(old.mtimeMs);
    expect(now.ino).not.toBe(old.ino);
    expect(store.loadConfig().config.settings.quietWindowMs).toBe(2000);
  });

  it('sees an in-place edit of a different length', () => {
    const { store, path } = configFolder(3);
    store.loadConfig();
    const ino = statSync(path).ino;
    writeFileSync(path, readFileSync(path, 'utf8').replace('"quietWindowMs": 1000', '"quietWindowMs": 12000'));
    expect(statSync(path).ino).toBe(ino);
    expect(store.loadConfig().config.settings.quietWindowMs).toBe(12000);
  });

  it('documents the known limit: an in-place rewrite keeping inode, size and mtime is not seen by readers, but edits see it', async () => {
    const { store, path } = configFolder(3);
    utimesSync(path, SECOND, SECOND);
    store.loadConfig();
    const old = statSync(path);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"quietWindowMs": 1000', '"quietWindowMs": 3000'));
    utimesSync(path, SECOND, SECOND);
    const now = statSync(path);
    expect([now.ino, now.size, now.mtimeMs]).toEqual([old.ino, old.size, old.mtimeMs]);
    expect(store.loadConfig().config.settings.quietWindowMs).toBe(1000); // the blind spot
    // An edit parses the bytes on disk, so it builds on the rewrite and loses nothing.
    await store.editConfig(setSetting('copyConcurrency', 3));
    expect(onDisk(path).settings).toMatchObject({ quietWindowMs: 3000, copyConcurrency: 3 });
    expect(store.loadConfig().config.settings).toMatchObject({ quietWindowMs: 3000, copyConcurrency: 3 });
  });

  it('does not reuse a snapshot after the file disappears, and treats the failed stat as a miss', () => {
    const { store, path } = configFolder(3);
    expect(store.loadConfig().config.projects).toHaveLength(3);
    rmSync(path);
    const read = store.loadConfig();
    expect(read.error).toBeUndefined();
    expect(read.config.projects).toHaveLength(0);
    writeConfig(path, { projects: [project(9)] });
    expect(store.loadConfig().config.projects.map((p) => p.name)).toEqual(['project-9']);
  });

  it('never caches a lenient read of a structurally invalid file, nor serves it to a strict reader', async () => {
    const { store, path } = configFolder(0);
    writeConfig(path, { projects: [project(1), { id: 'nope' }, project(2)], settings: { quietWindowMs: 'soon', copyConcurrency: 2 } });
    const { by, result } = await growth('config.parses', () => [store.loadConfig(), store.loadConfig()]);
    expect(by).toBe(2);
    const [lenient] = result;
    expect(lenient!.error?.code).toBe('CONFIG_CORRUPT');
    expect(lenient!.config.projects.map((p) => p.name)).toEqual(['project-1', 'project-2']);
    expect(lenient!.config.settings).toMatchObject({ quietWindowMs: 2000, copyConcurrency: 2 });
    expect(() => store.requireConfig()).toThrow(expect.objectContaining({ code: 'CONFIG_CORRUPT' }));
    await expect(store.editConfig(setSetting('quietWindowMs', 5))).rejects.toMatchObject({ code: 'CONFIG_CORRUPT' });
  });

  it('sees an external atomic replacement between our rename and the end of the save', async () => {
    const { path, dir } = configFolder(3);
    const store = new ConfigStore(path, {
      io: {
        rename: async (from, to) => {
          await rename(from, to);
          // Another writer replaces the file right after ours landed, before the save ends.
          const theirs = onDisk(path);
          theirs.settings.quietWindowMs = 4242;
          writeFileSync(join(dir, 'theirs.tmp'), JSON.stringify(theirs));
          renameSync(join(dir, 'theirs.tmp'), path);
        },
      },
    });
    await readerEveryTurn(
      () => store.loadConfig(),
      () => store.editConfig(setSetting('quietWindowMs', 1111)),
    );
    expect(store.loadConfig().config.settings.quietWindowMs).toBe(4242);
  });

  it('runs in-process edits one at a time, first come first served, each on the previous result', async () => {
    const { store, path } = configFolder(1);
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.editConfig((config) => {
          order.push(i);
          return { ...config, settings: { ...config.settings, excludePatterns: [...config.settings.excludePatterns, `p${i}`] } } as FrozenConfig;
        }),
      ),
    );
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(onDisk(path).settings.excludePatterns).toEqual(Array.from({ length: 20 }, (_, i) => `p${i}`));
  });

  it('keeps fields it does not know through an edit, and saves nothing for an edit that changes nothing', async () => {
    const { store, path } = configFolder(0);
    writeConfig(path, {
      version: 1,
      futureField: { a: [1, 2] },
      projects: [project(1, { colour: 'teal' })],
      settings: { laterSetting: true },
      window: { monitor: 2 },
    });
    const { by } = await growth('config.saves', () => store.editConfig((c) => c));
    expect(by).toBe(0);
    await store.editConfig(setSetting('copyConcurrency', 2));
    const saved = onDisk(path) as unknown as Record<string, Record<string, unknown>>;
    expect(saved.futureField).toEqual({ a: [1, 2] });
    expect((saved.projects as unknown as Record<string, unknown>[])[0]!.colour).toBe('teal');
    expect(saved.settings!.laterSetting).toBe(true);
    expect(saved.settings!.copyConcurrency).toBe(2);
    expect(saved.window!.monitor).toBe(2);
  });

  it('refuses an edit whose result breaks the schema, and saves nothing', async () => {
    const { store, path } = configFolder(2);
    const bytes = readFileSync(path);
    await expect(store.editConfig(setSetting('copyConcurrency', 0))).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(statSync(path).mode & 0o777).not.toBe(0);
  });
});
