import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HindsightConfig } from '../../../electron/history/config/configSchema.js';
import { ConfigStore, type ConfigStoreOptions } from '../../../electron/history/config/configStore.js';
import { counter } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';

// A data folder with a config.json of a few known projects, and the small tools the config tests share.

export function project(i: number, extra: Record<string, unknown> = {}) {
  return {
    id: i.toString(16).padStart(32, '0'),
    root: `/home/alex/work/project-${i}`,
    name: `project-${i}`,
    addedAt: 1_700_000_000_000 + i,
    lastOpenedAt: 1_700_000_100_000 + i,
    ...extra,
  };
}

export function writeConfig(path: string, value: unknown): void {
  writeFileSync(path, typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`);
}

export function configFolder(projects = 3, options: ConfigStoreOptions = {}) {
  const dir = tempDir('hindsight-config-');
  const path = join(dir, 'config.json');
  writeConfig(path, { version: 1, projects: Array.from({ length: projects }, (_, i) => project(i)), settings: { quietWindowMs: 1000 } });
  return { dir, path, store: new ConfigStore(path, options) };
}

export function onDisk(path: string): HindsightConfig {
  return JSON.parse(readFileSync(path, 'utf8')) as HindsightConfig;
}

/** How much a counter grows while `work` runs. */
export async function growth<T>(name: string, work: () => Promise<T> | T): Promise<{ by: number; result: T }> {
  const before = counter(name);
  const result = await work();
  return { by: counter(name) - before, result };
}

/** Calls `read` on every event-loop turn until `work` settles, and one turn after. */
export async function readerEveryTurn<T>(read: () => void, work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let running = true;
  let turns = 0;
  const loop = () => {
    if (!running) return;
    read();
    turns++;
    setImmediate(loop);
  };
  setImmediate(loop);
  try {
    const result = await work();
    await new Promise((resolve) => setImmediate(resolve));
    read();
    return { result, turns };
  } finally {
    running = false;
  }
}
