import { seededRandom } from '../bench/fixtures/seededRandom.js';

// Generated (glob, path) cases for the differential test of shared/pathGlob.ts: globs in the
// syntax Hindsight and picomatch share (names of characters, `*`, `?`, classes, `**` names, a
// leading or final `/`), paths of names a project holds (never empty, `.` or `..`), half of them
// made from the glob itself so that matches are as common as misses.

/** Characters of names: letters in both cases, non-ASCII case pairs (`é`/`É`, `ſ`, the Kelvin sign), dots and dashes. */
const NAME_CHARS = ['a', 'b', 'A', 'B', 'x', '.', '-', '_', 'é', 'É', 's', 'S', 'ſ', 'k', 'K', '\u212a', ' '];
const CLASSES = ['[ab]', '[!a]', '[^b]', '[a-c]', '[A-C]', '[!a-b]', '[.-]', '[-x]', '[]a]', '[sk]', '[éx]', '[!.]', '[a'];

/** One glob and the paths it is asked about. */
export interface GlobCase {
  glob: string;
  paths: string[];
}

/** `globs` globs of `pathsPerGlob` paths each (a glob is compiled once for all of them). */
export function globCases(seed: number, globs: number, pathsPerGlob: number): GlobCase[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const cases: GlobCase[] = [];
  while (cases.length < globs) {
    const segments = Array.from({ length: 1 + Math.floor(random() * 4) }, () => globSegment(random, pick));
    let glob = segments.join('/');
    const roll = random();
    if (roll < 0.08) glob = `/${glob}`;
    else if (roll < 0.16) glob = `${glob}/`;
    const paths: string[] = [];
    while (paths.length < pathsPerGlob) {
      const path = random() < 0.5 ? pathFrom(glob, random, pick) : randomPath(random, pick);
      if (!path.split('/').some((name) => name === '' || name === '.' || name === '..')) paths.push(path);
    }
    cases.push({ glob, paths });
  }
  return cases;
}

function globSegment(random: () => number, pick: <T>(list: readonly T[]) => T): string {
  if (random() < 0.15) return '**';
  let name = '';
  const length = 1 + Math.floor(random() * 4);
  for (let i = 0; i < length; i++) {
    const roll = random();
    if (roll < 0.2) name += '*';
    else if (roll < 0.3) name += '?';
    else if (roll < 0.4) name += pick(CLASSES);
    else if (roll < 0.43) name += '**';
    else name += pick(NAME_CHARS);
  }
  return name === '.' || name === '..' ? 'a' : name;
}

/** A path the glob likely matches: each wildcard filled with random characters, some changed afterwards. */
function pathFrom(glob: string, random: () => number, pick: <T>(list: readonly T[]) => T): string {
  let path = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') path += Array.from({ length: Math.floor(random() * 3) }, () => (random() < 0.15 ? '/' : pick(NAME_CHARS))).join('');
    else if (c === '?') path += pick(NAME_CHARS);
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      path += end < 0 ? c : pick(NAME_CHARS);
      if (end > 0) i = end;
    } else path += c;
  }
  if (random() < 0.3) path = path.replace(/[^/]/, () => pick(NAME_CHARS));
  if (path.startsWith('/')) path = path.slice(1);
  if (path.endsWith('/')) path += pick(NAME_CHARS);
  return random() < 0.2 ? `${pick(NAME_CHARS)}/${path}` : path;
}

function randomPath(random: () => number, pick: <T>(list: readonly T[]) => T): string {
  const names = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
    Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(NAME_CHARS)).join(''),
  );
  return names.join('/');
}
