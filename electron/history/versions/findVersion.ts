import { HindsightError } from '../../../shared/errors.js';
import type { VersionInfo } from '../../../shared/history.js';
import type { ProjectStore } from '../project/projectStore.js';
import { assertProjectPath } from '../paths/safeTarget.js';

// The version a reader asks for: the one named (it must be a version of that path), or the latest
// one with contents. A deletion has no contents to read: that is a clear error, not empty bytes.

export type ContentVersion = VersionInfo & { hash: string };

export function findVersion(store: ProjectStore, path: string, versionId: number | undefined): ContentVersion {
  assertProjectPath(path);
  const version = versionId === undefined ? store.index.versions.latestContents(path) : store.index.versions.version(versionId);
  // A version from before the file was renamed to this path is one of its versions too.
  if (!version || !store.index.renames.inLineage(path, version)) {
    const which = versionId === undefined ? 'no version' : `no version ${versionId}`;
    throw new HindsightError('VERSION_NOT_FOUND', `There is ${which} of ${path}.`, { path, versionId });
  }
  if (version.hash === null) {
    throw new HindsightError('VERSION_NOT_FOUND', `Version ${versionId} of ${path} is a deletion: it has no contents.`, { path, versionId });
  }
  return version as ContentVersion;
}
