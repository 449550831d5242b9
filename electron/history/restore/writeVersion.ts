import type { EntryType } from '../../../shared/history.js';
import { cloneTemp, linkTemp, makeParent, moveIntoPlace } from './replaceFile.js';
import type { RestoreTemps } from '../project/restoreTemps.js';
import type { BlobStore } from '../store/blobStore.js';

// Puts one version's exact bytes and mode at a path through a temp beside it (replaceFile.ts), so
// the file is at every moment either the old one or the new one. A link is restored as a link.

export interface WritableVersion {
  hash: string;
  size: number;
  mode: number;
  type: EntryType | null | undefined;
  target?: string | null;
  versionId?: number;
}

export function writeVersion(blobs: BlobStore, version: WritableVersion, absTarget: string, path: string, temps: RestoreTemps): void {
  makeParent(absTarget, path);
  const temp = temps.tempFor(absTarget);
  if (version.type === 'symlink') linkTemp(version.target ?? '', temp, path);
  else cloneTemp(blobs, version, temp, path);
  moveIntoPlace(temp, absTarget, path);
}
