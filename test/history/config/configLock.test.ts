import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { acquireConfigLock } from '../../../electron/history/config/configLock.js';
import { ConfigStore } from '../../../electron/history/config/configStore.js';
import { setSetting } from '../../../electron/history/config/projectEdits.js';
import { counter } from '../../../electron/history/trace.js';
import { finished } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { buildConfigChild } from './children/buildChild.js';
import { configFolder, onDisk } from './configFixture.js';

// The cross-process side of config edits, with real processes: a lock whose owner was killed with
// SIGKILL is taken over, a live owner makes a waiter fail with CONFIG_LOCKED after its timeout, and
// two processes editing at once lose no edit.

let child = '';
beforeAll(async () => {
  child = await buildConfigChild();
});

function startChild(args: string[]): ChildProcess {
  return spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

function untilLine(proc: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let text = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.split('\n').includes(line)) resolve();
    });
    proc.on('exit', (code) => reject(new Error(`child exited (${code}) before printing ${line}`)));
  });
}

function exited(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => (proc.exitCode !== null || proc.signalCode !== null ? resolve() : proc.once('exit', () => resolve())));
}

describe('config lock', () => {
  it('takes over the lock of an owner killed with SIGKILL while holding it', async () => {
    const dir = tempDir('hindsight-lock-');
    const lockPath = join(dir, 'config.json.lock');
    const holder = startChild(['hold', lockPath]);
    await untilLine(holder, 'held');
    expect(JSON.parse(readFileSync(lockPath, 'utf8')).pid).toBe(holder.pid);
    holder.kill('SIGKILL');
    await exited(holder); // reaped: its pid is gone, not a zombie
    const before = counter('config.lockTakeovers');
    const lock = await acquireConfigLock(lockPath, { timeoutMs: 5000 });
    expect(counter('config.lockTakeovers') - before).toBe(1);
    expect(JSON.parse(readFileSync(lockPath, 'utf8')).pid).toBe(process.pid);
    lock.release();
    expect(existsSync(lockPath)).toBe(false);
  });

  it('fails with CONFIG_LOCKED, changing nothing, while a live owner holds the lock too long', async () => {
    const { path } = configFolder(2);
    const holder = startChild(['hold', `${path}.lock`]);
    try {
      await untilLine(holder, 'held');
      const bytes = readFileSync(path);
      const store = new ConfigStore(path, { lockTimeoutMs: 300 });
      const error = await store.editConfig(setSetting('quietWindowMs', 5)).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'CONFIG_LOCKED', details: { ownerPid: holder.pid } });
      expect((error as Error).message).toContain(`process ${holder.pid}`);
      expect(readFileSync(path).equals(bytes)).toBe(true);
    } finally {
      holder.kill('SIGKILL');
      await exited(holder);
    }
    // Its owner gone, the same store edits at once.
    await new ConfigStore(path, { lockTimeoutMs: 300 }).editConfig(setSetting('quietWindowMs', 5));
    expect(onDisk(path).settings.quietWindowMs).toBe(5);
  });

  it('loses no edit when two processes and this one edit at the same time', async () => {
    const { path } = configFolder(5);
    // Collected from the start: a child may well finish before this process's edits do.
    const a = finished(startChild(['edit', path, 'a', '25']));
    const b = finished(startChild(['edit', path, 'b', '25']));
    const mine = new ConfigStore(path);
    for (let i = 0; i < 10; i++)
      await mine.editConfig((c) => ({ ...c, settings: { ...c.settings, excludePatterns: [...c.settings.excludePatterns, `main-${i}`] } }));
    const [ra, rb] = await Promise.all([a, b]);
    expect([ra.code, ra.stderr, rb.code, rb.stderr]).toEqual([0, '', 0, '']);
    const patterns = onDisk(path).settings.excludePatterns;
    expect(patterns).toHaveLength(60);
    for (const name of ['a', 'b']) {
      // Each process's own edits stay in its order.
      expect(patterns.filter((p) => p.startsWith(`${name}-`))).toEqual(Array.from({ length: 25 }, (_, i) => `${name}-${i}`));
    }
    expect(onDisk(path).projects).toHaveLength(5);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('takes over an empty lock file left by an owner that died between creating and writing it, once it is old', async () => {
    const dir = tempDir('hindsight-lock-');
    const lockPath = join(dir, 'config.json.lock');
    writeFileSync(lockPath, '');
    // Fresh, it may be a lock being written this very moment: the waiter waits, then gives up.
    await expect(acquireConfigLock(lockPath, { timeoutMs: 200 })).rejects.toMatchObject({ code: 'CONFIG_LOCKED', details: { ownerPid: null } });
    const tenSecondsAgo = Date.now() / 1000 - 10;
    utimesSync(lockPath, tenSecondsAgo, tenSecondsAgo);
    const lock = await acquireConfigLock(lockPath, { timeoutMs: 200 });
    expect(JSON.parse(readFileSync(lockPath, 'utf8')).token).toBe(lock.token);
    lock.release();
  });

  it('takes over a lock that names this process but a token it does not hold (a predecessor with the same pid)', async () => {
    const dir = tempDir('hindsight-lock-');
    const lockPath = join(dir, 'config.json.lock');
    const { hostname } = await import('node:os');
    writeFileSync(lockPath, JSON.stringify({ pid: process.pid, host: hostname(), token: 'from-a-process-before-a-restart', at: 1 }));
    const lock = await acquireConfigLock(lockPath, { timeoutMs: 200 });
    expect(JSON.parse(readFileSync(lockPath, 'utf8')).token).toBe(lock.token);
    // While held, the same process's next waiter does wait for it.
    await expect(acquireConfigLock(lockPath, { timeoutMs: 100 })).rejects.toMatchObject({ code: 'CONFIG_LOCKED' });
    lock.release();
  });
});
