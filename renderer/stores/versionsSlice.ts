import type { DiffInputs, DiskState, FileBytes, HunkRange, VersionInfo } from '../../shared/contract.js';
import type { GitVersions } from '../../shared/git.js';
import type { HindsightErrorData } from '../../shared/errors.js';
import type { Slice } from './appState.js';
import { fileRestore } from './fileRestore.js';
import { linkedLine, type LinkedLine } from './linkedLine.js';
import { versionPages } from './versionPages.js';
import { versionSelection } from './versionSelection.js';

// The selected file's versions (newest first), which of them the disk holds now, the selected
// version's contents, what it is compared with (the disk, the version before, git's HEAD or
// INDEX, or two versions picked in the list), and restoring it (confirm with the diff of what
// will change, then a toast that offers Undo). A restore asks the engine once; what it recorded
// comes back as events, and the view refreshes once (refresh.ts). Each part is a file of its own:
// the pages (versionPages.ts), their marks (versionMarks.ts), the selection (versionSelection.ts),
// what the content pane shows (versionView.ts) and the restores (fileRestore.ts).

export { currentComparison } from './currentComparison.js';
export { VERSIONS_PAGE } from './versionPages.js';

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
  /** The line a deep link named, marked in its file's versions (linkedLine.ts). */
  linkedLine: LinkedLine | null;
  /** Shows a file's newest version in the Files view with `line` marked (a deep link). */
  openLinkedFile(path: string, line: number | null): void;
}

/** Nothing selected: no file, no version, no comparison (fresh lists: the view tells a change by identity). */
const noFile = () =>
  ({
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
    diff: null,
    diffError: null,
    disk: null,
    gitVersions: null,
    comparePicks: [],
    restoreTarget: null,
    linkedLine: null,
  }) satisfies Partial<VersionsSlice>;

export const createVersionsSlice: Slice<VersionsSlice> = (set, get) => ({
  ...noFile(),
  compareWith: 'none',
  diffLayout: 'side',
  restoring: false,
  revealed: 0,
  resetVersions: () => set(noFile()),
  ...versionPages(set, get),
  ...versionSelection(set, get),
  ...fileRestore(set, get),
  ...linkedLine(set, get),
});
