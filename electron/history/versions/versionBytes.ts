import { Readable } from 'node:stream';
import type { DiffInputs, FileBytes, GitSource } from '../../../shared/contract/values.js';
import { gitFileAt } from '../git/gitFileAt.js';
import type { ProjectStore } from '../project/projectStore.js';
import { streamsBeforeChecked } from '../store/checkBlobWhole.js';
import { encodeFileBytes } from './encodeFileBytes.js';
import { findVersion } from './findVersion.js';
import { readDiskHead } from './readDiskHead.js';

// A version's bytes for a reader: the head the viewer shows (a 4 GiB video's version costs a read
// of its first bytes, never the whole blob in memory), the two sides of a diff, and the whole
// stream the CLI's show writes out. A link's bytes are its target.

export type DiffSide = { kind: 'version'; versionId: number } | { kind: 'disk' } | { kind: 'git'; source: GitSource };

/** At most maxBytes of a version (default: the latest with contents), marked when truncated. */
export function readVersion(store: ProjectStore, path: string, versionId: number | undefined, maxBytes: number): FileBytes {
  const version = findVersion(store, path, versionId);
  if (version.type === 'symlink') {
    const bytes = Buffer.from(version.target ?? '', 'utf8');
    return encodeFileBytes({ path, versionId: version.versionId, type: 'symlink', mode: version.mode, size: bytes.length, bytes }, maxBytes);
  }
  // The size comes from the index, so only the head is read and `truncated` is still exact.
  const bytes = store.blobs.head(version.hash, maxBytes, version.size, { path, versionId: version.versionId });
  return encodeFileBytes({ path, versionId: version.versionId, type: 'file', mode: version.mode, size: version.size, bytes }, maxBytes);
}

/** The two texts to compare; a side is null where the file does not exist (deleted, not on disk, not in git). */
export async function diffInputs(store: ProjectStore, path: string, before: DiffSide, after: DiffSide, maxBytes: number): Promise<DiffInputs> {
  const side = async (s: DiffSide): Promise<FileBytes | null> => {
    if (s.kind === 'git') return gitSide(store, path, s.source, maxBytes);
    if (s.kind === 'disk') {
      const head = readDiskHead(store.root, path, maxBytes);
      return head ? encodeFileBytes({ path, versionId: null, ...head }, maxBytes) : null;
    }
    // A deletion has no contents: that side of the diff is absent, not an error.
    const version = store.index.versions.version(s.versionId);
    if (version && version.path === path && version.hash === null) return null;
    return readVersion(store, path, s.versionId, maxBytes);
  };
  return { path, before: await side(before), after: await side(after) };
}

/** git's version as one side of a diff; null when git has none (not committed, not staged). */
async function gitSide(store: ProjectStore, path: string, source: GitSource, maxBytes: number): Promise<FileBytes | null> {
  const git = await gitFileOrNone(store, path, source);
  if (!git) return null;
  return encodeFileBytes({ path, versionId: null, type: git.type, mode: git.mode, size: git.bytes.length, bytes: git.bytes.subarray(0, maxBytes) }, maxBytes);
}

async function gitFileOrNone(store: ProjectStore, path: string, source: GitSource) {
  try {
    return await gitFileAt(store.git, path, source);
  } catch (error) {
    if ((error as { code?: string }).code === 'NOT_FOUND') return undefined;
    throw error;
  }
}

/** Every byte of git's HEAD or INDEX version (the CLI's `show --version HEAD`). */
export async function gitVersionStream(store: ProjectStore, path: string, source: GitSource): Promise<Readable> {
  return Readable.from([(await gitFileAt(store.git, path, source)).bytes]);
}

/**
 * Every byte of a version as a stream, checked against its hash before its first byte: a version
 * longer than the stream holds back is read and checked whole first (every chunk), so a damaged or
 * missing part throws here and nothing is handed on.
 */
export function versionStream(store: ProjectStore, path: string, versionId: number | undefined): Readable {
  const version = findVersion(store, path, versionId);
  if (version.type === 'symlink') return Readable.from([Buffer.from(version.target ?? '', 'utf8')]);
  const subject = { path, versionId: version.versionId };
  if (streamsBeforeChecked(version.size)) store.blobs.checkWhole(version.hash, version.size, subject);
  return store.blobs.stream(version.hash, version.size, subject);
}
