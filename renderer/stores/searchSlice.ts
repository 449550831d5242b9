import type { SearchHit, SearchMatch, SearchResult } from '../../shared/contract.js';
import type { HindsightErrorData } from '../../shared/errors.js';
import type { TextQuery } from '../../shared/textSearch.js';
import { asError, call } from '../api/hindsight.js';
import type { Slice } from './appState.js';

// Searching every version of the current project: the query as typed (plain or regex, case), its
// answer grouped by the engine into one hit per file and content, and opening a hit: the Files
// view on that file at that version, with the match highlighted (searchHighlight), or compared
// with the current file when the text is gone from it.

export interface SearchHighlight {
  path: string;
  versionId: number;
  line: number;
  column: number;
  /** The query that found it, to measure the match in the version's text. */
  query: TextQuery;
}

export interface SearchSlice {
  searchQuery: string;
  searchRegex: boolean;
  searchCase: boolean;
  searchStatus: 'idle' | 'searching' | 'ready' | 'error';
  searchResult: SearchResult | null;
  /** The query the shown result answers. */
  searched: TextQuery | null;
  searchError: HindsightErrorData | null;
  searchHighlight: SearchHighlight | null;
  setSearchQuery(query: string): void;
  setSearchRegex(regex: boolean): void;
  setSearchCase(caseSensitive: boolean): void;
  runSearch(): Promise<void>;
  openSearchHit(hit: SearchHit, match: SearchMatch | undefined, compare?: boolean): Promise<void>;
  resetSearch(): void;
}

let searchSeq = 0;
/** The operationId of the search still running, if any: a newer search ends it. */
let runningSearch: string | null = null;

export const createSearchSlice: Slice<SearchSlice> = (set, get) => ({
  searchQuery: '',
  searchRegex: false,
  searchCase: false,
  searchStatus: 'idle',
  searchResult: null,
  searched: null,
  searchError: null,
  searchHighlight: null,

  setSearchQuery: (searchQuery) => {
    // An emptied box answers nothing: the results of the query that was there go with it.
    if (searchQuery.trim() !== '') return set({ searchQuery });
    searchSeq++;
    if (runningSearch) void call('cancel', { operationId: runningSearch }).catch(() => undefined);
    set({ searchQuery, searchStatus: 'idle', searchResult: null, searched: null, searchError: null });
  },
  setSearchRegex: (searchRegex) => set({ searchRegex }),
  setSearchCase: (searchCase) => set({ searchCase }),

  runSearch: async () => {
    const { currentProjectId: projectId, searchQuery: query, searchRegex: regex, searchCase: caseSensitive } = get();
    if (!projectId || query.trim() === '') return;
    const seq = ++searchSeq;
    // Nobody will read the answer of the search this one replaces: the history process ends it.
    if (runningSearch) void call('cancel', { operationId: runningSearch }).catch(() => undefined);
    const operationId = `search-${Date.now()}-${seq}`;
    runningSearch = operationId;
    set({ searchStatus: 'searching', searchError: null, view: 'search' });
    try {
      const searchResult = await call('search', { projectId, query, regex, caseSensitive, operationId });
      if (seq === searchSeq) set({ searchResult, searched: { query, regex, caseSensitive }, searchStatus: 'ready' });
    } catch (error) {
      if (seq === searchSeq) set({ searchStatus: 'error', searchError: asError(error).toJSON(), searchResult: null });
    } finally {
      if (runningSearch === operationId) runningSearch = null;
    }
  },

  openSearchHit: async (hit, match, compare = false) => {
    const version = hit.versions[0];
    if (!version) return;
    const searched = get().searched;
    set({
      view: 'files',
      selectedPath: hit.path,
      compareWith: compare ? 'disk' : 'none',
      searchHighlight: match && searched ? { path: hit.path, versionId: version.versionId, line: match.line, column: match.column, query: searched } : null,
    });
    await get().revealVersion(hit.path, version.versionId);
  },

  resetSearch: () => {
    searchSeq++;
    set({ searchQuery: '', searchStatus: 'idle', searchResult: null, searched: null, searchError: null, searchHighlight: null });
  },
});
