import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isUnderPrefix } from '../../../shared/projectPath.js';
import { isRestoreTemp } from '../project/restoreTemps.js';
import type { TrackedPaths } from '../git/trackedPaths.js';
import { nameRulesOf } from '../paths/nameRules.js';
import { isIgnored, makeLayer, type IgnoreLayer } from '../walk/ignoreRules.js';

// The first copy's ignore rules for single paths, as the watcher meets them: .git always, the
// user's exclude patterns, the .gitignore of every folder on the way (read once, forgotten when a
// .gitignore changes), and restore temps. A path under an ignored folder is ignored, as the walk
// never enters such a folder; a file git tracks (and the folders on its way) never is by a
// .gitignore, as the walk records it too.

export class IgnoreMatcher {
  private readonly layers = new Map<string, IgnoreLayer | null>();
  private readonly base: IgnoreLayer[];
  /** Patterns match case as the folder compares names. */
  private readonly foldsCase: boolean;

  constructor(
    private readonly root: string,
    exclude: readonly string[] = [],
    /** A folder always ignored (the data folder inside the project). */
    private readonly skip?: string,
    private tracked?: TrackedPaths,
  ) {
    this.foldsCase = nameRulesOf(root).foldsCase;
    this.base = exclude.length > 0 ? [makeLayer('', exclude.join('\n'), this.foldsCase)] : [];
  }

  ignored(path: string, isDir: boolean): boolean {
    if (path === '') return false;
    if (this.skip !== undefined && isUnderPrefix(path, this.skip)) return true;
    const parts = path.split('/');
    if (parts.includes('.git') || (!isDir && isRestoreTemp(path))) return true;
    if (this.tracked && (isDir ? this.tracked.folders : this.tracked.files).has(path)) return this.excluded(parts, isDir);
    const layers = [...this.base];
    let folder = '';
    for (let i = 0; i < parts.length; i++) {
      const layer = this.layerOf(folder);
      if (layer) layers.push(layer);
      const sub = folder === '' ? parts[i]! : `${folder}/${parts[i]}`;
      const last = i === parts.length - 1;
      if (isIgnored(layers, sub, last ? isDir : true)) return true;
      folder = sub;
    }
    return false;
  }

  /** Whether a file is left out whatever git tracks: the data folder, .git, the user's exclude patterns. */
  leftOut(path: string): boolean {
    if (this.skip !== undefined && isUnderPrefix(path, this.skip)) return true;
    const parts = path.split('/');
    return parts.includes('.git') || this.excluded(parts, false);
  }

  /** Whether the user's exclude patterns (not a .gitignore) leave the path or a folder on its way out. */
  private excluded(parts: readonly string[], isDir: boolean): boolean {
    for (let i = 1; i <= parts.length; i++) {
      if (isIgnored(this.base, parts.slice(0, i).join('/'), i < parts.length || isDir)) return true;
    }
    return false;
  }

  /** The files git tracks now (its index was written): they are never left out by a .gitignore. */
  setTracked(tracked: TrackedPaths | undefined): void {
    this.tracked = tracked;
  }

  get trackedNow(): TrackedPaths | undefined {
    return this.tracked;
  }

  /** Forgets every .gitignore read so far (one of them changed). */
  invalidate(): void {
    this.layers.clear();
  }

  private layerOf(folder: string): IgnoreLayer | null {
    let layer = this.layers.get(folder);
    if (layer !== undefined) return layer;
    try {
      layer = makeLayer(folder, readFileSync(join(this.root, folder, '.gitignore'), 'utf8'), this.foldsCase);
    } catch {
      layer = null;
    }
    this.layers.set(folder, layer);
    return layer;
  }
}
