import { rulesInside } from '../restore/nameCollisions.js';
import { joinRecordedSpellings, spellingsDue } from './joinSpellingsAtOpen.js';
import { mergeTwinHistories, twinsOf, type TwinContext } from './mergeTwinHistory.js';
import type { OpenProject } from './openProject.js';
import type { ProjectRegistry } from './projectRegistry.js';
import type { WriterWait } from '../project/writerLock.js';

// What an open repairs in a history before its rescan, holding the project's writer lock: a twin
// history of the folder under another spelling merged into it (mergeTwinHistory.ts), then paths
// recorded under two spellings of one name joined (joinSpellingsAtOpen.ts), which the rescan would
// otherwise take for a deletion. Answers what was done, for the user (OpenResult.repaired).

/** The repairs due, each run under the writer lock (waited for as `wait` says); none due, the lock is not even taken. */
export async function repairAtOpen(
  context: Omit<TwinContext, 'close'> & { projects: ProjectRegistry },
  project: OpenProject,
  wait: WriterWait,
): Promise<string[]> {
  const twins: TwinContext = { dataDir: context.dataDir, config: context.config, close: (id) => context.projects.close(id) };
  const rules = rulesInside(project.root);
  if (twinsOf(twins, project).length === 0 && !spellingsDue(project.store, rules)) return [];
  return project.serial(async () => [...(await mergeTwinHistories(twins, project)), ...joinRecordedSpellings(project.store, rules)], wait);
}
