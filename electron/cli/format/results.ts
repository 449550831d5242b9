import type { Writable } from 'node:stream';
import type { OpenResult, UnreadablePath, VerifyResult } from '../../../shared/history.js';
import type { RestorePreview, RestoreSnapshotResult } from '../../../shared/contract/values.js';
import { countOf, formatBytes, formatDuration, formatNumber } from './words.js';
import { displayPath, visibleText } from '../../../shared/fileNameBytes.js';

// The one-paragraph answers of the commands that do something (open, verify, restore, watch),
// in words with correct plurals. (--json prints the results themselves; nothing here changes them.)

export function describeOpen(result: OpenResult): string {
  const what = `${countOf(result.files, 'file')} (${formatBytes(result.bytes)})`;
  const opened = result.firstCopy
    ? `Copied ${visibleText(result.root)}: ${what} in ${formatDuration(result.ms)}, ${countOf(result.blobs, 'blob')} stored.\n`
    : `Opened ${visibleText(result.root)}: ${what}, checked in ${formatDuration(result.ms)}; the store holds ${countOf(result.blobs, 'blob')}.\n`;
  return opened + describeRecovered(result.recoveredRestores) + describeIgnored(result);
}

/** Restores killed midway that this open completed or rolled back, and the paths it left alone. */
function describeRecovered(recovered: OpenResult['recoveredRestores']): string {
  return recovered
    .map((r) => {
      const what =
        r.outcome === 'completed'
          ? 'A restore killed midway had been recorded: it stands as restored.\n'
          : `A restore killed midway was rolled back: ${countOf(r.putBack.length, 'path')} put back as ${r.putBack.length === 1 ? 'it was' : 'they were'} before it.\n`;
      const left = r.leftAlone.map((l) => `  left as it is (${l.reason}): ${displayPath(l.path)}\n`).join('');
      return what + left;
    })
    .join('');
}

/** How many paths ignore rules left out, and how to see them (a first copy only: every open would repeat it). */
function describeIgnored(result: OpenResult): string {
  if (!result.firstCopy || result.ignored === 0) return '';
  return `Left out by ignore rules: ${countOf(result.ignored, 'path')} (hindsight ignored ${shellWord(result.root)} lists them; files git tracks are recorded).\n`;
}

function shellWord(text: string): string {
  const shown = visibleText(text);
  return /^[\w./-]+$/.test(shown) ? shown : `'${shown.replace(/'/g, `'\\''`)}'`;
}

const UNREADABLE_SHOWN = 20;

/** What could not be read, one line each (the first 20; --json has them all); '' when nothing. */
export function describeUnreadable(command: string, unreadable: readonly UnreadablePath[]): string {
  if (unreadable.length === 0) return '';
  const lines = unreadable.slice(0, UNREADABLE_SHOWN).map((u) => `  ${displayPath(u.path)}: ${u.reason}\n`);
  const more = unreadable.length > UNREADABLE_SHOWN ? `  and ${formatNumber(unreadable.length - UNREADABLE_SHOWN)} more (--json lists them all)\n` : '';
  return (
    `hindsight ${command}: could not read ${countOf(unreadable.length, 'path')}; everything else was recorded, ` +
    `and these are tried again at the next open:\n${lines.join('')}${more}`
  );
}

export function printVerify(out: Writable, result: VerifyResult): void {
  const state = result.ok ? 'all intact' : `${formatNumber(result.missing.length)} missing, ${formatNumber(result.corrupt.length)} corrupt`;
  const repaired = result.repaired.length > 0 ? ` (${formatNumber(result.repaired.length)} repaired from the folder)` : '';
  out.write(`${countOf(result.blobs, 'blob')} checked: ${state}${repaired}.\n`);
  const check = result.remoteCheck;
  if (result.remoteOnly > 0 || check) {
    const asked =
      check === null
        ? ' (--check-remote asks the remote for them)'
        : check.remote === null
          ? ' (no remote to ask)'
          : check.error
            ? ` (${check.remote} could not be asked: ${visibleText(check.error)})`
            : `; ${check.remote} holds ${formatNumber(check.found)}${check.absent > 0 ? ` and lacks ${formatNumber(check.absent)} (listed as missing)` : ''}`;
    out.write(`${formatNumber(result.remoteOnly)} live on the remote only, fetched when first read${asked}.\n`);
  }
  for (const [problem, list] of [
    ['repaired', result.repaired],
    ['missing', result.missing],
    ['corrupt', result.corrupt],
  ] as const) {
    for (const blob of list) {
      out.write(`${problem} ${blob.hash}: ${blob.versions.map((v) => `${displayPath(v.path)} (version ${v.versionId})`).join(', ')}\n`);
    }
  }
}

export function printRestorePreview(out: Writable, preview: RestorePreview, deleteAdded: boolean): void {
  const where = preview.prefix ? ` (${displayPath(preview.prefix)})` : '';
  out.write(
    `Restoring snapshot ${preview.snapshotId}${where} would write ${countOf(preview.write.length, 'file')}, ` +
      `recreate ${formatNumber(preview.recreate.length)}, leave ${formatNumber(preview.unchanged)} as ${preview.unchanged === 1 ? 'it is' : 'they are'}, and ` +
      `${deleteAdded ? 'delete' : 'keep'} ${formatNumber(preview.added.length)} added since.\n`,
  );
  // The steps in the order the restore takes them, then the added files it keeps.
  const recreated = new Set(preview.recreate);
  const label = { remove: 'delete', removeFolder: 'rmdir', makeFolder: 'mkdir', write: 'write' } as const;
  for (const step of preview.steps) {
    const op = step.op === 'write' && recreated.has(step.path) ? 'recreate' : label[step.op];
    out.write(`  ${op.padEnd(9)} ${displayPath(step.path)}${step.op === 'removeFolder' || step.op === 'makeFolder' ? '/' : ''}\n`);
  }
  if (!deleteAdded) for (const path of preview.added) out.write(`  keep      ${displayPath(path)}\n`);
}

export function describeRestore(target: number, result: RestoreSnapshotResult, folder: string): string {
  if (result.snapshotId === null) return `Nothing to restore: everything is already as in snapshot ${target}.\n`;
  return (
    `Restored snapshot ${target}: ${formatNumber(result.written)} written, ${formatNumber(result.recreated)} recreated, ` +
    `${formatNumber(result.deleted)} deleted, ${countOf(result.kept, 'file')} added since kept ` +
    `(snapshot ${result.snapshotId}).\n${undoCommand(folder, result.snapshotId)}`
  );
}

/** An undo of a restore, with the command that undoes the undo in turn. */
export function describeUndo(restoreId: number, result: RestoreSnapshotResult, folder: string): string {
  if (result.snapshotId === null) return `Nothing to undo: the paths restore ${restoreId} changed are already as they were before it.\n`;
  return (
    `Undid restore ${restoreId}: ${formatNumber(result.written)} written, ${formatNumber(result.recreated)} recreated, ` +
    `${formatNumber(result.deleted)} deleted; nothing else touched (snapshot ${result.snapshotId}).\n${undoCommand(folder, result.snapshotId)}`
  );
}

/** The command that undoes restore `snapshotId` at any later time, as the Timeline's "Undo this restore" does. */
export function undoCommand(folder: string, snapshotId: number): string {
  return `Undo with: hindsight restore ${shellWord(folder)} --undo ${snapshotId}\n`;
}

export function describeChangeGroup(group: { snapshotId?: number; changed: readonly string[]; reconciled: boolean }): string {
  return `Snapshot ${group.snapshotId}: ${countOf(group.changed.length, 'file')} changed${group.reconciled ? ' (found by a rescan)' : ''}\n`;
}

/** The note a restore or clone adds when it dropped special bits from another history; '' when it dropped none. */
export function describeSpecialModes(dropped: number): string {
  if (dropped === 0) return '';
  return `${countOf(dropped, 'file or folder', 'files or folders')} had setuid/setgid/sticky bits from another history; not restored (use --keep-special-modes to keep them).\n`;
}
