import type { DiffInputs, DiskState, FileBytes, HunkRange, VersionInfo } from '../../shared/contract.js';
import type { GitVersions } from '../../shared/git.js';
import type { HindsightErrorData } from '../../shared/errors.js';
import { asError, call } from '../api/hindsight.js';
import { baseName } from '../format/fileKind.js';
import { afterPaint } from './afterPaint.js';
import type { Slice } from './appState.js';
import { holdRefresh } from './refresh.js';
import { comparison, type Comparison } from './compareSides.js';
import { numberOfVersion, versionNumbers, versionTotal } from './versionNumbers.js';
import { versionWithTime } from '../format/versionName.js';

// The selected file's versions (newest first), which of them the disk holds now, the selected
// version's contents, what it is compared with (the disk, the version before, git's HEAD or
// INDEX, or two versions picked in the list), and restoring it (confirm with the diff of what
// will change, then a toast that offers Undo). A restore asks the engine once; what it recorded
// comes back as events, and the view refreshes once (refresh.ts).

/** What the selected file's view compares now, side by side named (null: no comparison). */
export function currentComparison(
  s: Pick<VersionsSlice, 'versions' | 'selectedVersionId' | 'compareWith' | 'comparePicks' | 'gitVersions' | 'versionsMore' | 'disk'>,
): Comparison | null {
  const selected = s.versions.find((v) => v.versionId === s.selectedVersionId);
  if (!selected) return null;
  const numberOf = versionNumbers(s.versions, versionTotal(s));
  return comparison({ versions: s.versions, selected, compareWith: s.compareWith, picks: s.comparePicks, numberOf, git: s.gitVersions });
}

export type CompareWith = 'none' | 'disk' | 'previous' | 'head' | 'index';
export type DiffLayout = 'side' | 'inline';

export interface VersionsSlice {
  versions: VersionInfo[];
  versionsPath: string | null;
  versionsStatus: 'idle' | 'loading' | 'ready' | 'error';
  versionsError: HindsightErrorData | null;
  /** Older versions exist beyond those loaded (a long history comes a page at a time). */
  versionsMore: boolean;
  loadingOlder: boolean;
  selectedVersionId: number | null;
  content: FileBytes | null;
  contentStatus: 'idle' | 'loading' | 'ready' | 'error';
  contentError: HindsightErrorData | null;
  compareWith: CompareWith;
  diffLayout: DiffLayout;
  diff: DiffInputs | null;
  diffError: HindsightErrorData | null;
  /** The file on disk now: which versions it is identical to (null until known). */
  disk: DiskState | null;
  /** git's committed and staged versions of the file (null outside a repository or until known). */
  gitVersions: GitVersions | null;
  /** Up to two versions picked in the list; two picked are compared with each other. */
  comparePicks: number[];
  /** The file restore being confirmed, with the diff of what it will change (disk -> version). */
  restoreTarget: { path: string; version: VersionInfo; number: number | undefined; diff: DiffInputs | null; diffError: HindsightErrorData | null } | null;
  restoring: boolean;
  loadVersions(path: string, keepSelection?: boolean): Promise<void>;
  /** The next page of older versions, below those shown. */
  loadOlderVersions(): Promise<void>;
  resetVersions(): void;
  selectVersion(versionId: number): void;
  setCompareWith(compare: CompareWith): void;
  togglePick(versionId: number): void;
  /** Shows one version of a file in the Files view, compared with the version before it (a snapshot's file list opens this). */
  openVersion(path: string, versionId: number): Promise<void>;
  /**
   * Lists a file's versions down to one of them (older pages read as needed) and selects it; the
   * list scrolls to it and keyboard focus goes to the content (revealed counts these openings).
   */
  revealVersion(path: string, versionId: number): Promise<void>;
  /** How many times a version was opened from elsewhere (a search hit, the Timeline): the views follow each. */
  revealed: number;
  clearPicks(): void;
  setDiffLayout(layout: DiffLayout): void;
  requestRestore(): Promise<void>;
  cancelRestore(): void;
  confirmRestore(): Promise<void>;
  /** Writes one changed block of the comparison with the current file back into it ("Restore this change"). */
  restoreChange(block: HunkRange): Promise<void>;
}

/** Versions read at a time: the first page paints at once however long the history is. */
export const VERSIONS_PAGE = 100;
const MAX_PAGE = 10_000;

export const createVersionsSlice: Slice<VersionsSlice> = (set, get) => {
  /** Loads what the content pane shows for the current selection and comparison. */
  async function loadView(): Promise<void> {
    const { currentProjectId: projectId, versionsPath: path, selectedVersionId: versionId, compareWith, versions } = get();
    if (!projectId || !path || versionId === null) return;
    const version = versions.find((v) => v.versionId === versionId);
    if (!version) return;
    const picks = get().comparePicks;
    const stale = () =>
      get().selectedVersionId !== versionId || get().versionsPath !== path || get().compareWith !== compareWith || get().comparePicks !== picks;
    if (picks.length < 2 && compareWith === 'none') {
      if (version.hash === null) {
        set({ content: null, contentStatus: 'ready', contentError: null, diff: null });
        return;
      }
      set({ contentStatus: 'loading', contentError: null, diff: null });
      try {
        const content = await call('readVersion', { projectId, path, versionId });
        if (!stale()) set({ content, contentStatus: 'ready' });
      } catch (error) {
        if (!stale()) set({ content: null, contentStatus: 'error', contentError: asError(error).toJSON() });
      }
      return;
    }
    set({ diffError: null, ...(picks.length === 2 ? { diff: null } : {}) });
    try {
      if (picks.length < 2 && compareWith === 'previous' && !versions[versions.indexOf(version) + 1] && get().versionsMore) {
        // The version before it is on the next page: read it first.
        await get().loadOlderVersions();
      }
      const sides = currentComparison(get());
      if (!sides) return;
      const { side: before } = sides.before;
      const { side: after } = sides.after;
      let diff: DiffInputs;
      if (before && after) diff = await call('diffInputs', { projectId, path, before, after });
      else diff = { path, before: null, after: version.hash === null ? null : await call('readVersion', { projectId, path, versionId }) };
      if (!stale()) set({ diff });
    } catch (error) {
      if (!stale()) set({ diff: null, diffError: asError(error).toJSON() });
    }
  }

  return {
    versions: [],
    versionsPath: null,
    versionsStatus: 'idle',
    versionsError: null,
    versionsMore: false,
    loadingOlder: false,
    selectedVersionId: null,
    content: null,
    contentStatus: 'idle',
    contentError: null,
    compareWith: 'none',
    diffLayout: 'side',
    diff: null,
    diffError: null,
    disk: null,
    gitVersions: null,
    comparePicks: [],
    restoreTarget: null,
    restoring: false,
    revealed: 0,

    loadVersions: async (path, keepSelection = false) => {
      const projectId = get().currentProjectId;
      if (!projectId) return;
      const samePath = get().versionsPath === path;
      if (!samePath) {
        set({
          versionsPath: path,
          versions: [],
          versionsStatus: 'loading',
          versionsError: null,
          selectedVersionId: null,
          content: null,
          diff: null,
          contentStatus: 'idle',
          disk: null,
          gitVersions: null,
          comparePicks: [],
        });
        if (get().compareWith === 'head' || get().compareWith === 'index') set({ compareWith: 'none' });
      }
      // The newest page; a refresh reads as many as were shown (older pages the user opened stay).
      const limit = samePath ? Math.min(MAX_PAGE, Math.max(VERSIONS_PAGE, get().versions.length)) : VERSIONS_PAGE;
      // The list is what a click waits for. The file on disk (hashed) and git's versions (git
      // run) only mark its rows: asked before it, they were answered before it, and answered
      // before its first paint each drew every row again. A new file asks for them once the list
      // is painted; a refresh of the same file beside it.
      const page = call('versions', { projectId, path, limit });
      if (samePath) void loadDisk(projectId, path);
      try {
        const oldestFirst = await page;
        if (get().versionsPath !== path) return;
        const versions = oldestFirst.slice().reverse();
        set({ versionsMore: oldestFirst.length === limit });
        const previous = get().selectedVersionId;
        const keep = keepSelection && samePath && versions.some((v) => v.versionId === previous);
        const selected = keep ? previous : ((versions.find((v) => v.hash !== null) ?? versions[0])?.versionId ?? null);
        const comparePicks = get().comparePicks.filter((id) => versions.some((v) => v.versionId === id));
        set({
          versions,
          versionsStatus: 'ready',
          selectedVersionId: selected,
          comparePicks: comparePicks.length === get().comparePicks.length ? get().comparePicks : comparePicks,
        });
        // The selected version's contents (or diff) after the list is painted: a click's first
        // rows never wait for a CodeMirror view to be built. A selection made meanwhile has
        // loaded its own view.
        afterPaint(() => {
          if (get().versionsPath !== path) return;
          if (!samePath) {
            void loadDisk(projectId, path);
            void loadGit(projectId, path);
          }
          if ((!keep || get().compareWith !== 'none') && get().selectedVersionId === selected) void loadView();
        });
      } catch (error) {
        if (get().versionsPath === path) set({ versionsStatus: 'error', versionsError: asError(error).toJSON() });
      }
    },

    loadOlderVersions: async () => {
      const { currentProjectId: projectId, versionsPath: path, versions, versionsMore, loadingOlder } = get();
      const oldest = versions.at(-1);
      if (!projectId || !path || !oldest || !versionsMore || loadingOlder) return;
      set({ loadingOlder: true });
      try {
        const page = await call('versions', { projectId, path, limit: VERSIONS_PAGE, before: oldest.versionId });
        if (get().versionsPath !== path || get().versions.at(-1) !== oldest) return;
        set((s) => ({ versions: [...s.versions, ...page.slice().reverse()], versionsMore: page.length === VERSIONS_PAGE }));
      } catch (error) {
        get().pushToast({ tone: 'error', message: asError(error).message });
      } finally {
        set({ loadingOlder: false });
      }
    },

    resetVersions: () =>
      set({
        versionsMore: false,
        loadingOlder: false,
        versions: [],
        versionsPath: null,
        versionsStatus: 'idle',
        versionsError: null,
        selectedVersionId: null,
        content: null,
        contentStatus: 'idle',
        contentError: null,
        diff: null,
        diffError: null,
        restoreTarget: null,
        disk: null,
        gitVersions: null,
        comparePicks: [],
      }),

    selectVersion: (versionId) => {
      if (versionId === get().selectedVersionId) return;
      set({ selectedVersionId: versionId });
      void loadView();
    },

    setCompareWith: (compareWith) => {
      set({ compareWith, diff: null, diffError: null });
      void loadView();
    },

    togglePick: (versionId) => {
      const picks = get().comparePicks;
      // A third pick replaces the first: the two latest picks are compared.
      const next = picks.includes(versionId) ? picks.filter((id) => id !== versionId) : [...picks, versionId].slice(-2);
      set({ comparePicks: next, diff: null, diffError: null });
      void loadView();
    },

    openVersion: async (path, versionId) => {
      // A file deleted now is listed only with the deleted files shown: known from the deleted
      // list when it has arrived, else from the file's newest version once the versions are read.
      const deletedNow = get().deleted.some((d) => d.path === path);
      set({ view: 'files', selectedPath: path, compareWith: 'previous', comparePicks: [], ...(deletedNow ? { showDeleted: true } : {}) });
      await get().revealVersion(path, versionId);
      if (get().versionsPath === path && get().versions[0]?.hash === null && !get().showDeleted) set({ showDeleted: true });
    },

    revealVersion: async (path, versionId) => {
      await get().loadVersions(path);
      const listed = () => get().versions.some((v) => v.versionId === versionId);
      // A version older than the first page: read older pages until its row is listed.
      while (get().versionsPath === path && !listed() && get().versionsMore) {
        const shown = get().versions.length;
        await get().loadOlderVersions();
        if (get().versions.length === shown) break;
      }
      if (get().versionsPath !== path || !listed()) return;
      get().selectVersion(versionId);
      set((s) => ({ revealed: s.revealed + 1 }));
    },

    clearPicks: () => {
      set({ comparePicks: [], diff: null, diffError: null });
      void loadView();
    },

    setDiffLayout: (diffLayout) => set({ diffLayout }),

    requestRestore: async () => {
      const { versionsPath: path, versions, selectedVersionId, currentProjectId: projectId } = get();
      const version = versions.find((v) => v.versionId === selectedVersionId);
      if (!path || !version || !projectId) return;
      set({ restoreTarget: { path, version, number: numberOfVersion(get(), version.versionId), diff: null, diffError: null } });
      // What the restore will change: the file on disk now, then this version.
      try {
        const diff = await call('diffInputs', { projectId, path, before: { kind: 'disk' }, after: { kind: 'version', versionId: version.versionId } });
        const target = get().restoreTarget;
        if (target?.version.versionId === version.versionId) set({ restoreTarget: { ...target, diff } });
      } catch (error) {
        const target = get().restoreTarget;
        if (target?.version.versionId === version.versionId) set({ restoreTarget: { ...target, diffError: asError(error).toJSON() } });
      }
    },

    cancelRestore: () => set({ restoreTarget: null }),

    restoreChange: (block) => restoreChange(block),

    confirmRestore: async () => {
      const target = get().restoreTarget;
      const projectId = get().currentProjectId;
      if (!target || !projectId || get().restoring) return;
      set({ restoring: true });
      try {
        const result = await holdRefresh(() => call('restoreFile', { projectId, path: target.path, versionId: target.version.versionId }));
        set({ restoreTarget: null, restoring: false });
        // The engine says what undoes it: the version the file had just before.
        const undoTo = result.undoVersionId;
        get().pushToast({
          tone: 'info',
          message: `Restored ${baseName(target.path)} to ${versionWithTime(target.number, target.version.at)}.`,
          action: undoTo !== null ? { label: 'Undo', run: () => void undoRestore(projectId, target.path, undoTo) } : undefined,
        });
      } catch (error) {
        set({ restoring: false, restoreTarget: null });
        get().pushToast({ tone: 'error', message: asError(error).message });
      }
    },
  };

  async function restoreChange(block: HunkRange): Promise<void> {
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
      const undoTo = result.undoVersionId;
      get().pushToast({
        tone: 'info',
        message: `Restored one change of ${baseName(path)} from ${version ? versionWithTime(number, version.at) : 'that version'}.`,
        action: undoTo !== null ? { label: 'Undo', run: () => void undoRestore(projectId, path, undoTo) } : undefined,
      });
    } catch (error) {
      get().pushToast({ tone: 'error', message: asError(error).message });
    } finally {
      set({ restoring: false });
    }
  }

  async function loadDisk(projectId: string, path: string): Promise<void> {
    try {
      const disk = await call('diskState', { projectId, path });
      if (get().versionsPath === path) set({ disk });
    } catch {
      // Unknown: no row is marked current, and restoring stays possible.
      if (get().versionsPath === path) set({ disk: null });
    }
  }

  async function loadGit(projectId: string, path: string): Promise<void> {
    try {
      const git = await call('gitVersions', { projectId, path });
      if (get().versionsPath === path) set({ gitVersions: git.repository ? git : null });
    } catch {
      if (get().versionsPath === path) set({ gitVersions: null });
    }
  }

  async function undoRestore(projectId: string, path: string, versionId: number): Promise<void> {
    try {
      await holdRefresh(() => call('restoreFile', { projectId, path, versionId }));
      get().pushToast({ tone: 'info', message: `Undone: ${baseName(path)} is back as it was.` });
    } catch (error) {
      get().pushToast({ tone: 'error', message: `Undo failed: ${asError(error).message}` });
    }
  }
};
