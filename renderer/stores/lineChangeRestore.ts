import type { FileBytes } from '../../shared/contract.js';
import type { DiffBlock } from '../../shared/diff/diffBlocks.js';
import { diffTexts } from '../../shared/diff/textDiff.js';
import { HindsightError } from '../../shared/errors.js';
import { asError, call } from '../api/hindsight.js';
import { baseName } from '../format/fileKind.js';
import { versionWithTime } from '../format/versionName.js';
import type { GetApp, SetApp } from './appState.js';
import { undoAction } from './fileRestore.js';
import { holdRefresh } from './refresh.js';
import { numberOfVersion } from './versionNumbers.js';

// "Restore this change" in the History for selection: the lines followed, as one listed version
// left them, go back into the current file. It is the diff view's "Restore this change" (the
// restoreHunk call): of the diff between that version and the file on disk, the one block that
// touches those lines is written back, recorded first and undoable. The engine checks the file
// still holds the bytes compared (FILE_CHANGED otherwise), so a change made since is never lost.
// Where no block touches them the file already holds them so; where several do, the comparison
// with the current file restores them one by one, and the message says so.

export async function restoreLineChange(set: SetApp, get: GetApp, versionId: number): Promise<void> {
  const { currentProjectId: projectId, lineHistory, restoring } = get();
  const entry = lineHistory?.entries.find((e) => e.versionId === versionId);
  if (!projectId || !lineHistory || !entry || restoring) return;
  const path = lineHistory.path;
  const name = versionWithTime(numberOfVersion(get(), versionId), entry.at);
  set({ restoring: true });
  try {
    const disk = await call('diskState', { projectId, path });
    const { before, after } = await call('diffInputs', { projectId, path, before: { kind: 'version', versionId }, after: { kind: 'disk' } });
    if (!disk.hash || !after) throw new HindsightError('FILE_CHANGED', `${baseName(path)} is not on disk: restore the whole version instead.`, { path });
    const blocks = blocksTouching(diffTexts(textOf(before, path), textOf(after, path)).blocks, entry.lines.from - 1, entry.lines.to);
    if (blocks.length === 0) {
      get().pushToast({ tone: 'info', message: `The current file already holds these lines as ${name} left them.` });
      return;
    }
    if (blocks.length > 1) {
      const message = `The current file differs from ${name} in ${blocks.length} places around these lines: compare that version with the current file to restore them one by one.`;
      throw new HindsightError('BAD_REQUEST', message, { path, versionId });
    }
    const result = await holdRefresh(() => call('restoreHunk', { projectId, path, versionId, hunk: blocks[0]!, diskHash: disk.hash! }));
    get().pushToast({
      tone: 'info',
      message: `Restored lines ${entry.lines.from}–${entry.lines.to} of ${baseName(path)} as ${name} left them.`,
      action: undoAction(get, projectId, path, result.undoVersionId),
    });
  } catch (error) {
    get().pushToast({ tone: 'error', message: asError(error).message });
  } finally {
    set({ restoring: false });
  }
}

/**
 * The blocks of diff(version, disk) that touch lines [start, end) of the version: those that
 * replaced or removed some of them, or added lines strictly inside them (shared/diff/followLines.ts
 * counts a change to the lines followed the same way, from the other side).
 */
export function blocksTouching(blocks: readonly DiffBlock[], start: number, end: number): DiffBlock[] {
  return blocks.filter((b) => (b.aEnd > b.aStart ? b.aStart < end && start < b.aEnd : start < b.aStart && b.aStart < end));
}

/** A side's text; a binary or cut-short side has no lines to put back. */
function textOf(file: FileBytes | null, path: string): string {
  if (!file) return '';
  if (file.encoding !== 'utf8' || file.truncated)
    throw new HindsightError('BAD_REQUEST', `${baseName(path)} is not whole text here: restore the whole version instead.`, { path });
  return file.data;
}
