import { foldName, foldsAnything, type NameRules } from '../../../shared/nameFold.js';
import type { NewVersion } from '../db/commitSnapshot.js';
import type { DeletedFile, Rename } from './findRenames.js';

// Where names fold, a file whose name changed only in case or normalization (`README.md` renamed
// `readme.md`, `a.txt` replaced by `A.TXT`) is the same file: its history goes on under the new
// spelling, whatever its bytes now are. Such pairs are taken before renames are looked for by
// contents (findRenames.ts), which then sees only the rest.

export interface SpellingRenames {
  renames: Rename[];
  /** The additions and deletions that are not a change of spelling. */
  added: NewVersion[];
  deleted: DeletedFile[];
}

export function spellingRenames(added: readonly NewVersion[], deleted: readonly DeletedFile[], rules: NameRules): SpellingRenames {
  if (!foldsAnything(rules) || added.length === 0 || deleted.length === 0) return { renames: [], added: [...added], deleted: [...deleted] };
  const byFold = new Map<string, DeletedFile>();
  for (const d of deleted) byFold.set(foldName(d.path, rules), d);
  const renames: Rename[] = [];
  const taken = new Set<string>();
  const rest: NewVersion[] = [];
  for (const a of added) {
    const from = byFold.get(foldName(a.path, rules));
    if (from && !taken.has(from.path)) {
      taken.add(from.path);
      renames.push({ path: a.path, fromPath: from.path });
    } else rest.push(a);
  }
  return { renames, added: rest, deleted: deleted.filter((d) => !taken.has(d.path)) };
}
