import { Readable } from 'node:stream';
import type { DiffInputs, FileBytes } from '../../../shared/contract/values.js';
import type { ProjectStore } from '../project/projectStore.js';
import { blobStream, readBlobHead } from '../store/blobReader.js';
import { encodeFileBytes } from './encodeFileBytes.js';
import { findVersion } from './findVersion.js';
import { readDiskHead } from './readDiskHead.js';

// A version's bytes for a reader: the head the viewer shows (a 4 GiB video's version costs a read
// of its first bytes, never the whole blob in memory), the two sides of a diff, and the whole
// stream the CLI's show writes out. A link's bytes are its target.

export type DiffSide = { kind: 'version'; versionId: number } | { kind: 'disk' };

/** At most maxBytes of a version (default: the latest with contents), marked when truncated. */
export function readVersion(store: ProjectStore, path: string, versionId: number | undefined, maxBytes: number): FileBytes {
  const version = findVersion(store, path, versionId);
  if (version.type === 'symlink') {
    const bytes = Buffer.from(version.target ?? '', 'utf8');
    return encodeFileBytes({ path, versionId: version.versionId, type: 'symlink', mode: version.mode, size: bytes.length, bytes }, maxBytes);
  }
  // The size comes from the index, so only the head is read and `truncated` is still exact.
  const bytes = readBlobHead(store.blobsDir, version.hash, maxBytes, version.size, { path, versionId: version.versionId });
  return encodeFileBytes({ path, versionId: version.versionId, type: 'file', mode: version.mode, size: version.size, bytes }, maxBytes);
}

/** The two texts to compare; a side is null where the file does not exist (deleted, or not on disk). */
export function diffInputs(store: ProjectStore, path: string, before: DiffSide, after: DiffSide, maxBytes: number): DiffInputs {
  const side = (s: DiffSide): FileBytes | null => {
    if (s.kind === 'disk') {
      const head = readDiskHead(store.root, path, maxBytes);
      return head ? encodeFileBytes({ path, versionId: null, ...head }, maxBytes) : null;
    }
    // A deletion has no contents: that side of the diff is absent, not an error.
    const version = store.index.version(s.versionId);
    if (version && version.path === path && version.hash === null) return null;
    return readVersion(store, path, s.versionId, maxBytes);
  };
  return { path, before: side(before), after: side(after) };
}

/** Every byte of a version as a stream, checked against its hash (opened now: a missing blob throws here, not mid-way). */
export function versionStream(store: ProjectStore, path: string, versionId: number | undefined): Readable {
  const version = findVersion(store, path, versionId);
  if (version.type === 'symlink') return Readable.from([Buffer.from(version.target ?? '', 'utf8')]);
  return blobStream(store.blobsDir, version.hash, version.size, { path, versionId: version.versionId });
}
