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
import { keyOf, statKeys, type StatKeys } from './statKey.js';

// config.json of one data folder, read through a snapshot cache and edited one edit at a time.
//
// Reads: the stat key is taken before the bytes are read, so a snapshot can only ever be filed
// under a key older than its bytes (a harmless miss later), never newer (a stale hit forever). A
// matching snapshot is returned as is: a frozen object shared by every reader. Only a valid file
// is cached; a corrupt or partly invalid one is re-read every time, and never served as valid.
//
// Edits: in process they queue, first come first served; across processes they take the lock
// file. Under the lock an edit reuses the snapshot when the file's exact key (ctime included)
// still matches it, else reads the file fresh; it runs its transform once and saves atomically.
// The saved config becomes the snapshot when the file on disk is still the one it wrote (same
// inode, size and mtime as the temp before its rename). So a process that reads, edits and reads
// again (every CLI open, which records lastOpenedAt) parses config.json once.

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
  keys: StatKeys;
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
    const keys = statKeys(this.path);
    const snapshot = this.snapshot;
    if (keys !== undefined && snapshot?.keys.key === keys.key) {
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
    this.snapshot = cacheable && keys !== undefined ? { keys, read } : undefined;
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
      const saved = deepFreeze(checked.data);
      await this.save(`${JSON.stringify(saved, null, 2)}\n`, saved);
      return saved;
    } finally {
      lock.release();
    }
  }

  /** The edit's own read: the snapshot when the file is exactly the one it was made from, else the bytes on disk now. */
  private async readForEdit(): Promise<FrozenConfig> {
    const keys = statKeys(this.path);
    if (keys !== undefined && this.snapshot?.keys.exact === keys.exact) {
      count('config.editReuses');
      return this.snapshot.read.config;
    }
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
    if (!cacheable || keys === undefined) this.snapshot = undefined;
    else if (this.snapshot?.keys.key !== keys.key) this.snapshot = { keys, read };
    return read.config;
  }

  private async save(text: string, saved: FrozenConfig): Promise<void> {
    try {
      await atomicWrite(this.path, text, { rename: this.io.rename, replaced: (written) => this.fileSaved(keyOf(written), saved) });
    } catch (error) {
      this.snapshot = undefined;
      throw fsError('save the config to', this.path, error);
    }
    count('config.saves');
  }

  /**
   * Right after the rename, before any reader's turn: the saved config is filed only while the file
   * on disk is ours (the temp's inode, size and mtime survive the rename; another writer's file
   * renamed over ours since has another inode). Else a snapshot survives only if a reader parsed
   * the very file now on disk.
   */
  private fileSaved(writtenKey: string, saved: FrozenConfig): void {
    const keys = statKeys(this.path);
    if (keys !== undefined && keys.key === writtenKey) this.snapshot = { keys, read: Object.freeze({ config: saved }) };
    else if (keys === undefined || this.snapshot?.keys.key !== keys.key) this.snapshot = undefined;
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
