import type { GetApp, SetApp } from './appState.js';
import { loadView } from './versionView.js';
import type { VersionsSlice } from './versionsSlice.js';

// Which version is shown and what it is compared with: each change loads the content pane again.

type Selection = Pick<VersionsSlice, 'selectVersion' | 'setCompareWith' | 'togglePick' | 'clearPicks' | 'setDiffLayout'>;

export function versionSelection(set: SetApp, get: GetApp): Selection {
  return {
    selectVersion: (versionId) => {
      if (versionId === get().selectedVersionId) return;
      set({ selectedVersionId: versionId });
      void loadView(set, get);
    },

    setCompareWith: (compareWith) => {
      set({ compareWith, diff: null, diffError: null });
      void loadView(set, get);
    },

    togglePick: (versionId) => {
      const picks = get().comparePicks;
      // A third pick replaces the first: the two latest picks are compared.
      const next = picks.includes(versionId) ? picks.filter((id) => id !== versionId) : [...picks, versionId].slice(-2);
      set({ comparePicks: next, diff: null, diffError: null });
      void loadView(set, get);
    },

    clearPicks: () => {
      set({ comparePicks: [], diff: null, diffError: null });
      void loadView(set, get);
    },

    setDiffLayout: (diffLayout) => set({ diffLayout }),
  };
}
