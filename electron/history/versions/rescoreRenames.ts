import type { ProjectStore } from '../project/projectStore.js';
import { count } from '../trace.js';
import { findRenames, type DeletedFile } from './findRenames.js';
import { bytesForComparing } from './recordPaths.js';

// Renames a store recorded before they were scored as git scores them (a split on newlines made
// two unrelated one-line files 50% alike, and a file of another's lines in other lengths a
// rename git does not see) are scored again once, when the store is first opened for writing by
// a build that scores as git does: every snapshot holding a rename gets the renames findRenames
// gives its additions and deletions now. Only those snapshots are read (a snapshot the old
// scoring found no rename in is left as it is), so the step costs one query on a store without
// renames; meta `renames.scoring` then says the links are git's, and later opens skip it. Each
// snapshot's links are replaced in one transaction: a store closed midway is scored again from
// the start by the next open, with the same result.

/** The scoring the stored links were made by (absent: the line-based one of before). */
export const RENAME_SCORING = 'git-diffcore-1';
const SCORING_KEY = 'renames.scoring';

export interface Rescored {
  /** Snapshots whose renames were scored again. */
  snapshots: number;
  /** Of those, the snapshots whose renames changed. */
  changed: number;
}

/** Scores the stored renames again when they were made by an older scoring; as the store's writer. */
export function rescoreRenames(store: ProjectStore): Rescored {
  const { index } = store;
  const done = { snapshots: 0, changed: 0 };
  if (index.getMeta(SCORING_KEY) === RENAME_SCORING) return done;
  for (const snapshotId of index.renames.snapshotsWithRenames()) {
    const renames = renamesNow(store, snapshotId);
    const before = index.renames.renamesIn(snapshotId);
    done.snapshots++;
    count('renames.rescored');
    if (JSON.stringify(before) === JSON.stringify(renames)) continue;
    index.renames.replaceRenames(snapshotId, renames);
    done.changed++;
  }
  index.setMeta(SCORING_KEY, RENAME_SCORING);
  return done;
}

/** The renames of one snapshot as findRenames scores them: its additions against its deletions' last contents. */
function renamesNow(store: ProjectStore, snapshotId: number): { path: string; fromPath: string }[] {
  const { index } = store;
  const changes = index.versions.snapshotChanges(snapshotId);
  const added = changes.filter((c) => c.change === 'added');
  const deleted: DeletedFile[] = changes
    .filter((c) => c.change === 'deleted')
    .flatMap((c) => {
      const last = index.versions.versionBefore(c.path, snapshotId);
      return last?.hash ? [{ path: c.path, hash: last.hash, size: last.size, type: last.type }] : [];
    });
  return findRenames(added, deleted, (hash, size) => bytesForComparing(store, hash, size));
}
