import type { CompactResult } from '../../../shared/contract.js';
import type { ProjectWrites } from '../project/projectWrites.js';
import type { WriterWait } from '../project/writerLock.js';
import { compactStore, type CompactOptions } from './compactStore.js';

/**
 * A compaction of an open project's store, each batch written as the project's writer (after the
 * writes queued before it); by default it waits for the project's own write running or queued.
 */
export function compactProject(project: ProjectWrites, options: Omit<CompactOptions, 'asWriter'> & Pick<WriterWait, 'onWait'>): Promise<CompactResult> {
  const { onWait, busy = () => project.writing(), ...rest } = options;
  return compactStore(project.store, { ...rest, asWriter: (work) => project.serial(work, { signal: options.signal, onWait }), busy });
}
