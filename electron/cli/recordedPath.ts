import { foldName, foldsAnything } from '../../shared/nameFold.js';
import type { HistoryEngine } from '../history/historyEngine.js';
import { nameRulesOf } from '../history/paths/nameRules.js';

// A path typed in another case or normalization is found on disk in its spelling there
// (project/userPath.ts); a file deleted since has no spelling on disk, so where the folder folds
// names the history's deleted paths are asked: `log . NOTES.TXT` finds the deleted `notes.txt`.

/** The recorded path `path` names in the project at `root`: itself, or a deleted path spelled otherwise. */
export function recordedPath(engine: HistoryEngine, projectId: string, root: string, path: string): string {
  if (engine.versions(projectId, path, { limit: 1 }).length > 0) return path;
  const rules = nameRulesOf(root);
  if (!foldsAnything(rules)) return path;
  const key = foldName(path, rules);
  return engine.deleted(projectId).find((f) => foldName(f.path, rules) === key)?.path ?? path;
}
