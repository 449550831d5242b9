import type { OpenProjectResult, ProjectSummary } from '../../../shared/contract.js';
import type { OpenProject } from '../registry/openProject.js';
import type { ProjectRecorder } from './projectRecorder.js';

/** What the recorder's open did: a first copy, or a rescan of a history that had one. */
export type Opened = Awaited<ReturnType<ProjectRecorder['open']>>;

/**
 * An open as the contract answers it: a first copy's counts as they are, a rescan's the history's
 * totals now and the time since `started` (the whole open); either with git's state of the folder.
 */
export function openResult(project: OpenProject, opened: Opened, started: number, summary: ProjectSummary, repaired: string[] = []): OpenProjectResult {
  const counts =
    'firstCopy' in opened
      ? { ...opened.firstCopy, firstCopy: true }
      : {
          ...historyTotals(project),
          ms: Math.round(performance.now() - started),
          firstCopy: false,
          unreadable: opened.rescan.unreadable,
          ignored: opened.rescan.ignored,
        };
  // Each restore finished by a sweep is told once, by the open that follows it.
  const recoveredRestores = project.store.writer.recovered.splice(0);
  const said = repaired.length > 0 ? { repaired } : {};
  return { projectId: project.projectId, root: project.root, ...counts, recoveredRestores, git: project.store.git.state(), project: summary, ...said };
}

function historyTotals({ store }: OpenProject): { files: number; bytes: number; blobs: number } {
  return { ...store.index.snapshotReads.ownFileTotals(), blobs: store.index.blobRecords.blobTotals().blobs };
}
