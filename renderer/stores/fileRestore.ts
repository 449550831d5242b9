import type { HunkRange } from '../../shared/contract.js';
import { asError, call } from '../api/hindsight.js';
import { baseName } from '../format/fileKind.js';
import { versionWithTime } from '../format/versionName.js';
import type { GetApp, SetApp } from './appState.js';
import { holdRefresh } from './refresh.js';
import { numberOfVersion } from './versionNumbers.js';
import type { VersionsSlice } from './versionsSlice.js';

// Restoring the selected file: the whole version (confirmed with the diff of what will change),
// or one changed block of its comparison with the current file. Each asks the engine once, under
// holdRefresh: what it recorded comes back as events and the view refreshes once (refresh.ts).
// Its toast offers Undo: the version the engine names as the file's state just before.

type Restore = Pick<VersionsSlice, 'requestRestore' | 'cancelRestore' | 'confirmRestore' | 'restoreChange'>;

export function fileRestore(set: SetApp, get: GetApp): Restore {
  return {
    requestRestore: () => requestRestore(set, get),
    cancelRestore: () => set({ restoreTarget: null }),
    confirmRestore: () => confirmRestore(set, get),
    restoreChange: (block) => restoreChange(set, get, block),
  };
}

async function requestRestore(set: SetApp, get: GetApp): Promise<void> {
  const { versionsPath: path, versions, selectedVersionId, currentProjectId: projectId } = get();
  const version = versions.find((v) => v.versionId === selectedVersionId);
  if (!path || !version || !projectId) return;
  set({ restoreTarget: { path, version, number: numberOfVersion(get(), version.versionId), diff: null, diffError: null } });
  const stillAsked = () => {
    const target = get().restoreTarget;
    return target?.version.versionId === version.versionId ? target : null;
  };
  // What the restore will change: the file on disk now, then this version.
  try {
    const diff = await call('diffInputs', { projectId, path, before: { kind: 'disk' }, after: { kind: 'version', versionId: version.versionId } });
    const target = stillAsked();
    if (target) set({ restoreTarget: { ...target, diff } });
  } catch (error) {
    const target = stillAsked();
    if (target) set({ restoreTarget: { ...target, diffError: asError(error).toJSON() } });
  }
}

async function confirmRestore(set: SetApp, get: GetApp): Promise<void> {
  const target = get().restoreTarget;
  const projectId = get().currentProjectId;
  if (!target || !projectId || get().restoring) return;
  set({ restoring: true });
  try {
    const result = await holdRefresh(() => call('restoreFile', { projectId, path: target.path, versionId: target.version.versionId }));
    set({ restoreTarget: null, restoring: false });
    get().pushToast({
      tone: 'info',
      message: `Restored ${baseName(target.path)} to ${versionWithTime(target.number, target.version.at)}.`,
      action: undoAction(get, projectId, target.path, result.undoVersionId),
    });
  } catch (error) {
    set({ restoring: false, restoreTarget: null });
    get().pushToast({ tone: 'error', message: asError(error).message });
  }
}

async function restoreChange(set: SetApp, get: GetApp, block: HunkRange): Promise<void> {
  const { currentProjectId: projectId, versionsPath: path, selectedVersionId: versionId, compareWith, disk } = get();
  if (!projectId || !path || versionId === null || compareWith !== 'disk' || get().comparePicks.length === 2 || get().restoring) return;
  if (!disk?.hash) {
    get().pushToast({ tone: 'error', message: `${baseName(path)} is not on disk as compared: compare it again.` });
    return;
  }
  const version = get().versions.find((v) => v.versionId === versionId);
  const number = numberOfVersion(get(), versionId);
  set({ restoring: true });
  try {
    const result = await holdRefresh(() => call('restoreHunk', { projectId, path, versionId, hunk: block, diskHash: disk.hash! }));
    get().pushToast({
      tone: 'info',
      message: `Restored one change of ${baseName(path)} from ${version ? versionWithTime(number, version.at) : 'that version'}.`,
      action: undoAction(get, projectId, path, result.undoVersionId),
    });
  } catch (error) {
    get().pushToast({ tone: 'error', message: asError(error).message });
  } finally {
    set({ restoring: false });
  }
}

/** The toast's Undo: back to the version the engine named (none when it named none). */
export function undoAction(get: GetApp, projectId: string, path: string, undoTo: number | null) {
  return undoTo !== null ? { label: 'Undo', run: () => void undoRestore(get, projectId, path, undoTo) } : undefined;
}

async function undoRestore(get: GetApp, projectId: string, path: string, versionId: number): Promise<void> {
  try {
    await holdRefresh(() => call('restoreFile', { projectId, path, versionId }));
    get().pushToast({ tone: 'info', message: `Undone: ${baseName(path)} is back as it was.` });
  } catch (error) {
    get().pushToast({ tone: 'error', message: `Undo failed: ${asError(error).message}` });
  }
}
