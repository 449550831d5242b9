import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { readFile, rename } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { HindsightError } from '../../../shared/errors.js';
import { fsError } from '../fsErrors.js';
import { makePrivateDir } from '../privateModes.js';
import { count } from '../trace.js';
import { atomicWrite, TEMP_MARK } from './atomicWrite.js';
import { configSchema, defaultConfig, type HindsightConfig } from './configSchema.js';
import { corruptError, invalidError, unreadableError } from './configErrors.js';
import { acquireConfigLock } from './configLock.js';
import { backupCorrupt } from './corruptBackup.js';
import { deepFreeze, type DeepReadonly } from './deepFreeze.js';
import { parseConfig } from './parseConfig.js';
import { statKey } from './statKey.js';

// config.json of one data folder, read through a snapshot cache and edited one edit at a time.
//
// Reads: the stat key is taken before the bytes are read, so a snapshot can only ever be filed
// under a key older than its bytes (a harmless miss later), never newer (a stale hit forever). A
// matching snapshot is returned as is: a frozen object shared by every reader. Only a valid file
// is cached; a corrupt or partly invalid one is re-read every time, and never served as valid.
//
// Edits: in process they queue, first come first served; across processes they take the lock
// file. Each edit reads the file fresh under the lock, runs its transform once, and saves
// atomically. Snapshots are thrown away only when they no longer match the file: with a reader on
// every event-loop turn, one edit parses config.json twice (its own read, and the first reader
// after the rename), which is the floor.

export type FrozenConfig = DeepReadonly<HindsightConfig>;

export interface ConfigRead {
  readonly config: FrozenConfig;
  /** Set when config.json could not be used as it is (CONFIG_CORRUPT, CONFIG_UNREADABLE): config is then defaults, or what could be salvaged. */
  readonly error?: HindsightError;
}

/** Gets the committed config (frozen) and returns the next one; returning the input unchanged saves nothing. */
export type ConfigTransform = (config: FrozenConfig) => FrozenConfig | HindsightConfig;

/** The file operations a test may replace to inject a failure that cannot be caused for real here. */
export interface ConfigIo {
  readFileSync(path: string): Buffer;
  readFile(path: string): Promise<Buffer>;
  rename(from: string, to: string): Promise<void>;
}

export interface ConfigStoreOptions {
  io?: Partial<ConfigIo>;
  lockTimeoutMs?: number;
}

interface Snapshot {
  key: string;
  read: ConfigRead;
}

const DEFAULT_CONFIG: FrozenConfig = deepFreeze(defaultConfig());
const DEFAULT_READ: ConfigRead = Object.freeze({ config: DEFAULT_CONFIG });

export class ConfigStore {
  private snapshot: Snapshot | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private tempsSwept = false;
  private readonly io: ConfigIo;

  constructor(
    readonly path: string,
    private readonly options: ConfigStoreOptions = {},
  ) {
    this.io = { readFileSync: (p) => readFileSync(p), readFile: (p) => readFile(p), rename, ...options.io };
  }

  get lockPath(): string {
    return `${this.path}.lock`;
  }

  /** The config as it is on disk, never throwing: a problem comes back as `error` beside defaults. */
  loadConfig(): ConfigRead {
    const key = statKey(this.path);
    const snapshot = this.snapshot;
    if (key !== undefined && snapshot?.key === key) {
      count('config.snapshotHits');
      return snapshot.read;
    }
    let bytes: Buffer;
    try {
      bytes = this.io.readFileSync(this.path);
    } catch (error) {
      this.snapshot = undefined;
      return this.failedRead(error);
    }
    const { read, cacheable } = this.interpret(bytes);
    this.snapshot = cacheable && key !== undefined ? { key, read } : undefined;
    return read;
  }

  /** The config, or the error that stops it being used: for readers that must not act on defaults. */
  requireConfig(): FrozenConfig {
    const { config, error } = this.loadConfig();
    if (error) throw error;
    return config;
  }

  /** Runs one edit; resolves with the saved config. Fails, changing nothing, when the file is corrupt or unreadable. */
  editConfig(transform: ConfigTransform): Promise<FrozenConfig> {
    const edit = this.queue.then(() => this.runEdit(transform));
    this.queue = edit.catch(() => undefined);
    return edit;
  }

  private async runEdit(transform: ConfigTransform): Promise<FrozenConfig> {
    try {
      makePrivateDir(dirname(this.path));
    } catch (error) {
      throw fsError('create the folder of the config', dirname(this.path), error);
    }
    const lock = await acquireConfigLock(this.lockPath, { timeoutMs: this.options.lockTimeoutMs });
    try {
      this.sweepTempsOnce();
      const committed = await this.readForEdit();
      const next = transform(committed);
      if (next === committed) return committed;
      const checked = configSchema.safeParse(next);
      if (!checked.success) {
        const issue = checked.error.issues[0];
        throw invalidError(`The config edit was refused: ${issue?.path.join('.') || 'config'}: ${issue?.message ?? 'invalid'}.`, {
          path: issue?.path ?? [],
        });
      }
      await this.save(`${JSON.stringify(checked.data, null, 2)}\n`);
      return deepFreeze(checked.data);
    } finally {
      lock.release();
    }
  }

  /** The edit's own read: always the bytes on disk now, whatever the snapshot says. */
  private async readForEdit(): Promise<FrozenConfig> {
    const key = statKey(this.path);
    let bytes: Buffer;
    try {
      bytes = await this.io.readFile(this.path);
    } catch (error) {
      // Cleared, so the next edit reads again rather than trusting a snapshot of a file that failed.
      this.snapshot = undefined;
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return DEFAULT_CONFIG;
      throw unreadableError(this.path, error);
    }
    const { read, cacheable } = this.interpret(bytes);
    if (read.error) {
      this.snapshot = undefined;
      throw read.error;
    }
    // The file is unchanged: a snapshot that matches it stays (its readers keep the same object).
    if (!cacheable || key === undefined) this.snapshot = undefined;
    else if (this.snapshot?.key !== key) this.snapshot = { key, read };
    return read.config;
  }

  private async save(text: string): Promise<void> {
    try {
      await atomicWrite(this.path, text, { rename: this.io.rename });
    } catch (error) {
      this.snapshot = undefined;
      throw fsError('save the config to', this.path, error);
    }
    count('config.saves');
    // A snapshot survives the save only if a reader parsed the very file now on disk (ours, or
    // another writer's that replaced it since). The saved object itself is never filed: by the time
    // we stat, someone else may have renamed their file over ours.
    const key = statKey(this.path);
    if (key === undefined || this.snapshot?.key !== key) this.snapshot = undefined;
  }

  private interpret(bytes: Buffer): { read: ConfigRead; cacheable: boolean } {
    // An empty file holds nothing to lose (a writer died before writing): it reads as defaults.
    if (bytes.length === 0) return { read: DEFAULT_READ, cacheable: false };
    const outcome = parseConfig(bytes);
    if (outcome.kind === 'valid') return { read: Object.freeze({ config: deepFreeze(outcome.config) }), cacheable: true };
    const error = corruptError(this.path, outcome.reason, this.keepCorrupt(bytes));
    const config = outcome.kind === 'invalid' ? deepFreeze(outcome.salvaged) : DEFAULT_CONFIG;
    return { read: Object.freeze({ config, error }), cacheable: false };
  }

  private keepCorrupt(bytes: Buffer): { path?: string; failure?: string } {
    try {
      return { path: backupCorrupt(this.path, bytes) };
    } catch (error) {
      return { failure: (error as Error).message };
    }
  }

  private failedRead(error: unknown): ConfigRead {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return DEFAULT_READ;
    return Object.freeze({ config: DEFAULT_CONFIG, error: unreadableError(this.path, error) });
  }

  /** Temps left by a writer that died mid-save; under the lock no live writer has one. */
  private sweepTempsOnce(): void {
    if (this.tempsSwept) return;
    this.tempsSwept = true;
    const folder = dirname(this.path);
    const prefix = `${basename(this.path)}${TEMP_MARK}`;
    try {
      for (const name of readdirSync(folder)) if (name.startsWith(prefix)) unlinkSync(join(folder, name));
    } catch {
      // best effort: a temp left behind costs disk space, nothing else
    }
  }
}

export function configPathOf(dataDir: string): string {
  return join(resolve(dataDir), 'config.json');
}

const stores = new Map<string, ConfigStore>();

/** The one store of a data folder in this process, so every edit of it joins the same queue. */
export function configStoreFor(dataDir: string): ConfigStore {
  const path = configPathOf(dataDir);
  let store = stores.get(path);
  if (!store) {
    store = new ConfigStore(path);
    stores.set(path, store);
  }
  return store;
}
