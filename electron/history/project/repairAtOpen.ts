import { joinRecordedSpellings } from './joinSpellingsAtOpen.js';
import { mergeTwinHistories, type TwinContext } from './mergeTwinHistory.js';
import type { OpenProject } from './openProject.js';
import type { ProjectRegistry } from './projectRegistry.js';

// What an open repairs in a history before its rescan, holding the project's writer lock: a twin
// history of the folder under another spelling merged into it (mergeTwinHistory.ts), then paths
// recorded under two spellings of one name joined (joinSpellingsAtOpen.ts), which the rescan would
// otherwise take for a deletion. Answers what was done, for the user (OpenResult.repaired).

export function repairAtOpen(context: Omit<TwinContext, 'close'> & { projects: ProjectRegistry }, project: OpenProject): Promise<string[]> {
  const twins: TwinContext = { dataDir: context.dataDir, config: context.config, close: (id) => context.projects.close(id) };
  return project.serial(async () => [...(await mergeTwinHistories(twins, project)), ...joinRecordedSpellings(project.store)]);
}
