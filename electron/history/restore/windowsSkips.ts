import type { UnwritableName } from '../../../shared/contract/values.js';
import { windowsNameProblem } from '../../../shared/windowsNames.js';

// On Windows, names a history recorded elsewhere may hold but Windows cannot (`CON`, `aux.txt`,
// a trailing dot, a `:`, a path past 260 characters) are skipped by a restore, each told with its
// reason, and listed by an import, rather than failing half way. The rules apply on win32, or
// wherever HINDSIGHT_WINDOWS_NAMES=on asks for them (how they are tested on Linux).

export function windowsNamesApply(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean {
  const asked = env.HINDSIGHT_WINDOWS_NAMES;
  if (asked === 'on' || asked === 'off') return asked === 'on';
  return platform === 'win32';
}

/** The paths Windows cannot hold under `root`, with why; none where the rules do not apply. */
export function unwritableNames(paths: Iterable<string>, root: string, apply = windowsNamesApply()): UnwritableName[] {
  if (!apply) return [];
  const out: UnwritableName[] = [];
  for (const path of paths) {
    const problem = windowsNameProblem(path, root.length);
    if (problem) out.push({ path, problem });
  }
  return out;
}

/** The entries a restore writes, without those Windows cannot hold, and those skipped. */
export function withoutUnwritable<T extends { path: string }>(entries: readonly T[], root: string): { kept: T[]; skipped: UnwritableName[] } {
  const skipped = unwritableNames(
    entries.map((e) => e.path),
    root,
  );
  if (skipped.length === 0) return { kept: [...entries], skipped };
  const out = new Set(skipped.map((s) => s.path));
  return { kept: entries.filter((e) => !out.has(e.path)), skipped };
}
