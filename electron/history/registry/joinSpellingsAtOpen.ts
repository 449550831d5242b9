import { lstatSync } from 'node:fs';
import { join, sep } from 'node:path';
import { foldsAnything, type NameRules } from '../../../shared/nameFold.js';
import type { JoinedSpellings } from '../db/spellingIndex.js';
import { faultPoint } from '../faultPoint.js';
import { count } from '../trace.js';
import { spelledAsOnDisk } from '../paths/diskSpelling.js';
import { nameCollisions, rulesInside, type RulesOfFolder } from '../restore/nameCollisions.js';
import type { ProjectStore } from '../project/projectStore.js';

// A Hindsight that compared names exactly recorded one file of a folder that folds names under
// each spelling it met (`README.md`, then `readme.md` after a case-only rename): two version lists
// for one file. The first open that knows the folder's rules joins them (db/spellingJoin.ts): the
// spelling on disk goes on (the one recorded last when the file is gone), every version kept once,
// in one transaction with a mark in the history, so later opens do not look again. A folder whose
// names are exact is never looked at: there `a` and `A` are two files.

/** The meta key of a history whose spellings were joined. */
export const SPELLINGS_JOINED = 'spellings.joined';

/** Whether the join is still to run: the folder folds names (somewhere, where folders differ) and the history is not marked. */
export function spellingsDue(store: ProjectStore, rules: NameRules | RulesOfFolder): boolean {
  return (typeof rules === 'function' || foldsAnything(rules)) && !store.index.spellings.marked(SPELLINGS_JOINED);
}

/** Every fold at once: only paths one under it can be one under a folder's own rules. */
const WIDEST: NameRules = Object.freeze({ foldsCase: true, foldsNormalization: true });

/** Joins what the history recorded twice under `rules` (by default the folder's); answers what it did, for the user. */
export function joinRecordedSpellings(store: ProjectStore, rules: NameRules | RulesOfFolder = rulesInside(store.root)): string[] {
  if (!spellingsDue(store, rules)) return [];
  const index = store.index.spellings;
  count('spellings.scanned');
  const { files, folders } = index.recorded();
  const done = index.join({
    files: oneName(files, rules),
    folders: oneName(folders, rules),
    target: (spellings, newest) => spellings.find((path) => onDisk(store.root, path)) ?? newest,
    mark: SPELLINGS_JOINED,
    beforeCommit: () => faultPoint('spellings-joining'),
  });
  return said(done);
}

/** The groups of paths that are one name under `rules`: first narrowed by the widest fold, so the folder's rules are asked only about candidates. */
function oneName(paths: readonly string[], rules: NameRules | RulesOfFolder): string[][] {
  const candidates = nameCollisions(paths, WIDEST).flat();
  return candidates.length === 0 ? [] : nameCollisions(candidates, rules);
}

/** Whether the path is there, spelled as the disk spells it. */
function onDisk(root: string, path: string): boolean {
  try {
    lstatSync(join(root, path.split('/').join(sep)));
  } catch {
    return false;
  }
  return spelledAsOnDisk(root, path);
}

const LISTED = 5;

function said({ joined, left }: JoinedSpellings): string[] {
  const lines: string[] = [];
  if (joined.length > 0) {
    const shown = joined.slice(0, LISTED).map((j) => `${j.spellings.join(', ')} as ${j.path}`);
    const more = joined.length > LISTED ? `, and ${joined.length - LISTED} more` : '';
    const files = joined.length === 1 ? '1 file' : `${joined.length} files`;
    lines.push(`Joined ${files} recorded under two spellings of one name (${shown.join('; ')}${more}): each goes on under one path, every version kept.`);
  }
  for (const l of left) lines.push(`Left ${l.spellings.join(' and ')} as recorded: ${l.reason}.`);
  return lines;
}
