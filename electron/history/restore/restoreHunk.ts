import { createHash } from 'node:crypto';
import { lstatSync, readFileSync } from 'node:fs';
import type { HunkRange, RestoreFileResult } from '../../../shared/contract/values.js';
import { splitLines } from '../../../shared/diff/splitLines.js';
import { diffTexts } from '../../../shared/diff/textDiff.js';
import { HindsightError } from '../../../shared/errors.js';
import { fsError } from '../fsErrors.js';
import { fsArg } from '../paths/fsPath.js';
import type { ProjectStore } from '../project/projectStore.js';
import { versionName } from '../db/versionOrdinal.js';
import { checkTarget, putBack, type RecordBefore } from './restoreFile.js';
import { safeTarget } from '../paths/safeTarget.js';
import { SpecialModes } from './specialModes.js';

// Restores one change of a diff between a version and the file on disk: the version's lines of
// that block replace the file's lines, the rest of the file stays as it is. Like every restore it
// records what the file holds first and is a snapshot of kind 'restore' (undone by restoring
// undoVersionId). The caller names the bytes it compared (their SHA-256, the store's hash) and
// the block; the engine diffs the version against the file again and applies the block only when
// the file still holds those bytes and the block is one of that diff's, so a change made on disk
// since the comparison is never overwritten.

// A byte order mark stays part of the first line, so the bytes written back are exact.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export async function restoreHunk(
  store: ProjectStore,
  path: string,
  versionId: number,
  hunk: HunkRange,
  diskHash: string,
  recordBefore: RecordBefore,
): Promise<RestoreFileResult> {
  checkTarget(store, path);
  const version = store.index.versions.version(versionId);
  if (!version || version.path !== path) {
    throw new HindsightError('VERSION_NOT_FOUND', `There is no such version of ${path}.`, { path, versionId });
  }
  if (version.hash === null || version.type !== 'file') {
    throw new HindsightError('BAD_REQUEST', `Only a change between two texts can be restored: restore the whole version of ${path} instead.`, {
      path,
      versionId,
    });
  }
  const current = readCurrent(store, path);
  if (createHash('sha256').update(current.bytes).digest('hex') !== diskHash) {
    throw new HindsightError('FILE_CHANGED', `${path} changed since it was compared: compare it again, then restore the change.`, { path });
  }
  const versionText = asText(store.blobs.head(version.hash, version.size, version.size, { path, versionId }), path);
  const currentText = asText(current.bytes, path);
  const diff = diffTexts(versionText, currentText);
  const block = diff.blocks.find((b) => b.aStart === hunk.aStart && b.aEnd === hunk.aEnd && b.bStart === hunk.bStart && b.bEnd === hunk.bEnd);
  if (!block) {
    throw new HindsightError('BAD_REQUEST', `That change is not one of the differences between ${path} and this version: compare them again.`, { path, hunk });
  }
  const bytes = Buffer.from(spliceLines(versionText, currentText, block), 'utf8');
  const { hash, repaired, stored } = store.blobs.put(bytes, { rewrite: new Set(store.index.damage.damagedHashes()) });
  if (repaired) store.index.damage.clearDamaged([hash]);
  const name = versionName(store.index, path, versionId);
  // The file keeps its own mode: only lines change.
  const contents = {
    hash,
    size: bytes.length,
    mode: current.mode,
    type: 'file' as const,
    target: null,
    modesAt: store.index.snapshotReads.latestSnapshotId() ?? 0,
  };
  return putBack(store, path, contents, new SpecialModes(store.index, true), recordBefore, () => ({
    label: `Restored one change of ${path} from ${name}`,
    origin: { kind: 'restore' },
    fromVersionId: versionId,
    blob: { hash, size: bytes.length, ...(stored === undefined ? {} : { storedSize: stored }) },
  }));
}

/** The file's lines with [bStart, bEnd) replaced by the version's [aStart, aEnd). */
export function spliceLines(versionText: string, currentText: string, block: HunkRange): string {
  const a = splitLines(versionText);
  const b = splitLines(currentText);
  return [...b.slice(0, block.bStart), ...a.slice(block.aStart, block.aEnd), ...b.slice(block.bEnd)].join('');
}

function readCurrent(store: ProjectStore, path: string): { bytes: Buffer; mode: number } {
  const abs = safeTarget(store.root, path);
  try {
    const stat = lstatSync(fsArg(abs));
    if (!stat.isFile()) throw new HindsightError('FILE_CHANGED', `${path} is no longer a file: compare it again.`, { path });
    return { bytes: readFileSync(fsArg(abs)), mode: stat.mode & 0o7777 };
  } catch (error) {
    if (error instanceof HindsightError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new HindsightError('FILE_CHANGED', `${path} is no longer on disk: restore the whole version instead.`, { path });
    throw fsError('read', path, error, 'RESTORE_FAILED');
  }
}

function asText(bytes: Uint8Array, path: string): string {
  try {
    if (bytes.includes(0)) throw new Error('NUL');
    return utf8.decode(bytes);
  } catch {
    throw new HindsightError('BAD_REQUEST', `${path} is not text here: restore the whole version instead.`, { path });
  }
}
