import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { HindsightError } from '../../../shared/errors.js';
import { displayPath } from '../../../shared/fileNameBytes.js';
import { foldName, foldsAnything, type NameRules } from '../../../shared/nameFold.js';
import { nameRulesOf } from '../paths/nameRules.js';
import { diskSpelling, spelledAsOnDisk } from '../paths/diskSpelling.js';

// A history recorded where names are exact may hold `Notes.txt` and `notes.txt` at once. Written
// into a folder that folds case (or normalization), the second would land on the first and
// overwrite it. Such a restore is refused before anything is written, naming each pair, and the
// way out is said: a folder on a file system that tells the names apart, or one of each pair.

/** The groups of paths (two or more, sorted) that are one name under `rules`. */
export function nameCollisions(paths: Iterable<string>, rules: NameRules): string[][] {
  if (!foldsAnything(rules)) return [];
  const byFold = new Map<string, string[]>();
  for (const path of paths) {
    const key = foldName(path, rules);
    const group = byFold.get(key);
    if (group) group.push(path);
    else byFold.set(key, [path]);
  }
  return [...byFold.values()].filter((group) => group.length > 1).map((group) => group.sort());
}

/** The name rules of the folder a restore writes into (or of its deepest existing parent when it is new). */
export function rulesWhereWritten(folder: string): NameRules {
  let at = folder;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return nameRulesOf(at);
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
  const rules = nameRulesOf(root);
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
  const rules = rulesWhereWritten(folder);
  const groups = nameCollisions(paths, rules);
  if (groups.length === 0) return;
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
