import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { HindsightError } from '../../../shared/errors.js';
import { displayPath } from '../../../shared/fileNameBytes.js';
import { foldName, foldsAnything, type NameRules } from '../../../shared/nameFold.js';
import { nameRulesOf } from '../paths/nameRules.js';
import { diskSpelling, spelledAsOnDisk } from '../paths/diskSpelling.js';
import { rulesVaryPerFolder } from '../paths/rulesPerFolder.js';

// A history recorded where names are exact may hold `Notes.txt` and `notes.txt` at once. Written
// into a folder that folds case (or normalization), the second would land on the first and
// overwrite it. Such a restore is refused before anything is written, naming each pair, and the
// way out is said: a folder on a file system that tells the names apart, or one of each pair.
// Each name is compared by the rules of the folder it lands in: on ext4 with casefold, only the
// folders flagged `+F` fold.

/** The rules of a folder of the tree being written, by its path there ('' for the top). */
export type RulesOfFolder = (dir: string) => NameRules;

/**
 * The groups of paths (two or more, sorted) that are one name: under `rules`, or with each name
 * folded by the rules of the folder holding it (where one device's folders differ, ext4's `+F`).
 */
export function nameCollisions(paths: Iterable<string>, rules: NameRules | RulesOfFolder): string[][] {
  if (typeof rules !== 'function' && !foldsAnything(rules)) return [];
  const byFold = new Map<string, string[]>();
  for (const path of paths) {
    const key = typeof rules === 'function' ? foldedPath(path, rules) : foldName(path, rules);
    const group = byFold.get(key);
    if (group) group.push(path);
    else byFold.set(key, [path]);
  }
  return [...byFold.values()].filter((group) => group.length > 1).map((group) => group.sort());
}

/** Each name of the path folded by the rules of the folder holding it. */
function foldedPath(path: string, rulesOf: RulesOfFolder): string {
  let key = '';
  let dir = '';
  for (const name of path.split('/')) {
    const folded = foldName(name, rulesOf(dir));
    key = dir === '' ? folded : `${key}/${folded}`;
    dir = dir === '' ? name : `${dir}/${name}`;
  }
  return key;
}

/** The name rules of the folder a restore writes into (or of its deepest existing parent when it is new). */
export function rulesWhereWritten(folder: string): NameRules {
  return nameRulesOf(existingParent(folder));
}

/**
 * The rules a tree written into `folder` is compared by: the folder's own where its file system
 * sets them per volume; else each folder's (a new one's are its deepest existing parent's), each
 * looked at once.
 */
export function rulesInside(folder: string): NameRules | RulesOfFolder {
  const top = existingParent(folder);
  if (!rulesVaryPerFolder(top)) return nameRulesOf(top);
  const seen = new Map<string, NameRules>();
  return (dir) => {
    let rules = seen.get(dir);
    if (rules === undefined) {
      rules = rulesWhereWritten(dir === '' ? folder : join(folder, dir));
      seen.set(dir, rules);
    }
    return rules;
  };
}

function existingParent(folder: string): string {
  let at = folder;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}

const LISTED = 5;

function foldsWords(rules: NameRules): string {
  return rules.foldsCase ? 'does not tell names apart by case' : 'does not tell apart composed and decomposed names';
}

/**
 * Throws NAME_COLLISION when one file's restore would land on a file (or folder) the disk holds
 * under another spelling: `Readme.md` restored where names fold and `README.md` is there would be
 * written over it.
 */
export function assertOneSpelling(root: string, path: string): void {
  // Where one device's folders differ (ext4's `+F`), the path may fold in any folder on its way.
  const inside = rulesInside(root);
  const folders = path.split('/').map((_, k, names) => names.slice(0, k).join('/'));
  const rules = typeof inside === 'function' ? (folders.map(inside).find(foldsAnything) ?? inside('')) : inside;
  if (!foldsAnything(rules) || spelledAsOnDisk(root, path)) return;
  const other = relative(root, diskSpelling(join(root, path)))
    .split(sep)
    .join('/');
  const pair = [path, other].sort();
  throw new HindsightError(
    'NAME_COLLISION',
    `Cannot restore ${displayPath(path)}: ${pair.map(displayPath).join(' and ')} would be one file in ${root}, which ${foldsWords(rules)}. ` +
      `Nothing was written. Restore ${displayPath(other)} instead, move it away first, or restore the snapshot --into a folder on a case-sensitive file system.`,
    { path, folder: root, collisions: [pair] },
  );
}

/**
 * Throws NAME_COLLISION when paths of snapshot `snapshotId` (a number here, or the words for a
 * snapshot of another machine) would land on one file in `folder`.
 */
export function assertNoNameCollisions(paths: Iterable<string>, folder: string, snapshotId: number | string): void {
  const inside = rulesInside(folder);
  const groups = nameCollisions(paths, inside);
  if (groups.length === 0) return;
  const first = groups[0]![0]!;
  const rules = typeof inside === 'function' ? inside(first.includes('/') ? first.slice(0, first.lastIndexOf('/')) : '') : inside;
  const listed = groups.slice(0, LISTED).map((group) => group.map(displayPath).join(' and '));
  const more = groups.length > LISTED ? ` and ${groups.length - LISTED} more` : '';
  const folds = foldsWords(rules);
  throw new HindsightError(
    'NAME_COLLISION',
    `${typeof snapshotId === 'number' ? `Snapshot ${snapshotId}` : snapshotId} holds names that would be one file in ${folder}, which ${folds}: ${listed.join('; ')}${more}. ` +
      'Nothing was written. Restore it --into a folder on a case-sensitive file system, or restore one of each pair on its own (restore FOLDER PATH --version ID).',
    { snapshotId, folder, collisions: groups },
  );
}
