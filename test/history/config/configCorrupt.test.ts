import { chmodSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setSetting } from '../../../electron/history/config/projectEdits.js';
import { ConfigStore } from '../../../electron/history/config/configStore.js';
import { cliAsNobody } from '../../helpers/otherUser.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { configFolder, onDisk, project, writeConfig } from './configFixture.js';

// A config.json Hindsight cannot use is never lost: a corrupt one is backed up byte for byte and
// left alone until someone fixes it; an unreadable one is reported, and the first edit after the
// fix works in the same process.

const backupsIn = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('config.json.corrupt-'));

describe('corrupt config.json', () => {
  it('backs it up byte for byte (0600, reused), reads as defaults with the error, refuses edits, writes nothing over it', async () => {
    const { dir, path, store } = configFolder(0);
    const bad = Buffer.from('{"version":1,"projects":[{"id":"00000000000000000000000000000001",\u0000 "root": truncated');
    writeConfig(path, bad.toString('utf8'));
    const bytes = readFileSync(path);
    const read = store.loadConfig();
    expect(read.error?.code).toBe('CONFIG_CORRUPT');
    expect(read.config.projects).toEqual([]);
    expect(read.config.settings.quietWindowMs).toBe(2000);
    const backupPath = read.error!.details!.backupPath as string;
    expect(read.error!.message).toContain(backupPath);
    expect(readFileSync(backupPath).equals(bytes)).toBe(true);
    expect(statSync(backupPath).mode & 0o777).toBe(0o600);

    // Read again, by this store and by another: the same backup, no second copy.
    expect(store.loadConfig().error!.details!.backupPath).toBe(backupPath);
    expect(new ConfigStore(path).loadConfig().error!.details!.backupPath).toBe(backupPath);
    expect(backupsIn(dir)).toHaveLength(1);

    for (let i = 0; i < 3; i++) {
      const error = await store.editConfig(setSetting('quietWindowMs', 5)).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'CONFIG_CORRUPT', details: { backupPath } });
    }
    expect(() => store.requireConfig()).toThrow(backupPath);
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(backupsIn(dir)).toHaveLength(1);
    expect(readdirSync(dir).sort()).toEqual(['config.json', backupPath.slice(dir.length + 1)].sort());

    // Fixed by hand: the same store edits again.
    writeConfig(path, { projects: [project(1)] });
    await store.editConfig(setSetting('quietWindowMs', 5));
    expect(onDisk(path)).toMatchObject({ projects: [{ name: 'project-1' }], settings: { quietWindowMs: 5 } });
  });

  it('makes a new backup when the corrupt bytes differ from the one kept', () => {
    const { dir, path, store } = configFolder(0);
    writeConfig(path, '{ not json');
    const first = store.loadConfig().error!.details!.backupPath;
    writeConfig(path, '{ not json either');
    const second = store.loadConfig().error!.details!.backupPath;
    expect(second).not.toBe(first);
    expect(backupsIn(dir)).toHaveLength(2);
    expect(readFileSync(second as string, 'utf8')).toBe('{ not json either');
  });

  it('edits again after the corrupt file is removed, starting from defaults', async () => {
    const { path, store } = configFolder(0);
    writeConfig(path, '[1, 2, 3]');
    expect(store.loadConfig().error?.message).toContain('not a JSON object');
    const { rmSync } = await import('node:fs');
    rmSync(path);
    await store.editConfig(setSetting('backgroundClose', 'off'));
    expect(onDisk(path).settings.backgroundClose).toBe('off');
  });
});

describe('unreadable config.json', () => {
  it('reports a folder in its place, and the first edit after the fix works without a restart', async () => {
    const { path, store } = configFolder(2);
    store.loadConfig();
    const { rmSync } = await import('node:fs');
    rmSync(path);
    mkdirSync(path);
    const read = store.loadConfig();
    expect(read.error).toMatchObject({ code: 'CONFIG_UNREADABLE' });
    expect(read.error!.message).toContain('a folder is in its place');
    await expect(store.editConfig(setSetting('quietWindowMs', 5))).rejects.toMatchObject({ code: 'CONFIG_UNREADABLE', details: { errno: 'EISDIR' } });
    expect(statSync(path).isDirectory()).toBe(true);
    rmdirSync(path);
    await store.editConfig(setSetting('quietWindowMs', 5));
    expect(onDisk(path).settings.quietWindowMs).toBe(5);
    expect(store.loadConfig().error).toBeUndefined();
  });

  it('reports EACCES to a process that may not read it (a real child with a dropped uid), and reads again once allowed', (ctx) => {
    const nobody = cliAsNobody();
    if ('reason' in nobody) return ctx.skip(nobody.reason);
    const dataDir = tempDir('hindsight-eacces-');
    chmodSync(dataDir, 0o755);
    const path = join(dataDir, 'config.json');
    writeConfig(path, { settings: { quietWindowMs: 1234 } });
    chmodSync(path, 0o600);
    const asNobody = () => nobody.run(['config', 'get', 'quietWindowMs', '--data-dir', dataDir]);
    const denied = asNobody();
    expect(denied.status).toBe(1);
    expect(denied.stderr).toContain(`Could not read the config ${path}: permission denied`);
    chmodSync(path, 0o644);
    const allowed = asNobody();
    expect([allowed.status, allowed.stdout.trim()]).toEqual([0, '1234']);
  });
});
