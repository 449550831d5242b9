import type { FileEntry } from '../../../shared/history.js';
import { foldName, foldsAnything, type NameRules } from '../../../shared/nameFold.js';

// Where names fold, a file the snapshot holds as `docs/a.md` is the file the disk holds now as
// `Docs/a.md`: the same file under another spelling, never an "added" file a --delete-added may
// remove. The snapshot's entry is taken under the spelling on disk, so the plan compares it with
// what is there, writes it there, and lists nothing of it as added.

/** The snapshot's files, each spelled as the file now present under the same folded name. */
export function withCurrentSpelling(target: readonly FileEntry[], current: ReadonlyMap<string, FileEntry>, rules: NameRules): FileEntry[] {
  if (!foldsAnything(rules)) return [...target];
  const exact = new Set(target.map((f) => f.path));
  const nowByFold = new Map<string, string>();
  for (const path of current.keys()) if (!exact.has(path)) nowByFold.set(foldName(path, rules), path);
  if (nowByFold.size === 0) return [...target];
  return target.map((f) => {
    if (current.has(f.path)) return f;
    const onDisk = nowByFold.get(foldName(f.path, rules));
    return onDisk === undefined ? f : { ...f, path: onDisk };
  });
}
