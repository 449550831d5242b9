import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { DiskState, VersionInfo } from '../../../shared/history.js';
import { fsError } from '../fsErrors.js';
import type { ProjectStore } from '../project/projectStore.js';
import { safeTarget } from '../paths/safeTarget.js';
import type { WalkEntry } from '../walk/walkFolder.js';
import { statPath } from '../walk/statPath.js';

// Which of a file's versions the disk holds now: the viewer's "Current" row (on this machine's
// line: what the folder's own history has), and the versions a restore would not change (and how many versions there are, read here anyway: the viewer's
// numbering while it shows a long history a page at a time). The hash comes from the stat cache while the file's stat still
// matches the row recorded with it (a 4 GiB video is not read on every click); otherwise the file
// is read and hashed, since the history may lag the disk (no watcher, a change still grouping).

export async function diskState(store: ProjectStore, path: string): Promise<DiskState> {
  safeTarget(store.root, path);
  const entry = statPath(store.root, path);
  const versions = store.index.versions.versionsOf(path);
  if (!entry) {
    const same = versions.filter((v) => v.hash === null).map((v) => v.versionId);
    return {
      path,
      exists: false,
      type: null,
      mode: null,
      size: null,
      hash: null,
      currentVersionId: currentOf(store, path, same),
      sameVersionIds: same,
      versionCount: versions.length,
    };
  }
  const hash = await hashOnDisk(store, entry);
  const same = versions.filter((v) => identical(v, entry, hash)).map((v) => v.versionId);
  return {
    path,
    exists: true,
    type: entry.type,
    mode: entry.mode,
    size: entry.size,
    hash,
    currentVersionId: currentOf(store, path, same),
    sameVersionIds: same,
    versionCount: versions.length,
  };
}

/**
 * The current version: the newest identical one on this machine's line (the folder's own
 * history); another machine's version with the same bytes is among the same ones, not current.
 */
function currentOf(store: ProjectStore, path: string, same: readonly number[]): number | null {
  if (same.length === 0) return null;
  const identicalIds = new Set(same);
  const own = store.index.versions.ownVersionsOf(path).filter((v) => identicalIds.has(v.versionId));
  return own.at(-1)?.versionId ?? null;
}

function identical(version: VersionInfo, entry: WalkEntry, hash: string): boolean {
  if (version.hash !== hash || version.type !== entry.type) return false;
  // A link's mode is whatever the platform gives links; its target is what it holds.
  return entry.type === 'symlink' ? (version.target ?? '') === (entry.target ?? '') : version.mode === entry.mode;
}

async function hashOnDisk(store: ProjectStore, entry: WalkEntry): Promise<string> {
  if (entry.type === 'symlink')
    return createHash('sha256')
      .update(Buffer.from(entry.target ?? '', 'utf8'))
      .digest('hex');
  const cached = store.index.statCache.cachedStat(entry.path);
  if (
    cached &&
    cached.type === 'file' &&
    cached.size === entry.size &&
    cached.mode === entry.mode &&
    cached.mtimeNs === entry.mtimeNs &&
    cached.ctimeNs === entry.ctimeNs &&
    cached.ino === entry.ino
  ) {
    return cached.hash;
  }
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(entry.abs)) hash.update(chunk as Buffer);
  } catch (error) {
    throw fsError('read', entry.path, error);
  }
  return hash.digest('hex');
}
