import { useEffect, useState } from 'react';
import { useApp } from '../../stores/appStore.js';
import type { DiffLayout } from '../../stores/versionsSlice.js';

// Side by side needs room for two columns of code: in a window narrower than NARROW_WIDTH the
// diff is shown inline, whatever was chosen, and the choice returns when the window widens.

export const NARROW_WIDTH = 1100;

const query = `(max-width: ${NARROW_WIDTH - 1}px)`;

export function useNarrowWindow(): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const onChange = () => setNarrow(list.matches);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, []);
  return narrow;
}

/** The layout the diff is drawn in: the chosen one, or inline in a narrow window. */
export function useDiffLayout(): DiffLayout {
  const chosen = useApp((s) => s.diffLayout);
  return useNarrowWindow() ? 'inline' : chosen;
}
