import ignore, { type Ignore } from 'ignore';

// .gitignore files at every level, plus the user's extra exclude patterns. A deeper file can
// re-include what a shallower one excluded (git's order); a folder that is excluded is never
// entered, so nothing under it can come back (git's rule too). Patterns match case as the folder
// compares names (git's core.ignoreCase): `build/` leaves `Build/` in on ext4, out where names fold.

export interface IgnoreLayer {
  /** The folder the rules were read in, project-relative ('' for the root). */
  base: string;
  rules: Ignore;
}

export function makeLayer(base: string, patterns: string, foldsCase: boolean): IgnoreLayer {
  return { base, rules: ignore({ allowRelativePaths: true, ignorecase: foldsCase }).add(patterns) };
}

/** Whether a project-relative path is excluded by the layers that apply to its folder. */
export function isIgnored(layers: readonly IgnoreLayer[], path: string, isDir: boolean): boolean {
  let ignored = false;
  for (const layer of layers) {
    const rel = layer.base === '' ? path : path.slice(layer.base.length + 1);
    const result = layer.rules.test(isDir ? `${rel}/` : rel);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}
