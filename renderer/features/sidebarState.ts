import { useCallback, useEffect, useState } from 'react';
import { NARROW_WIDTH } from './project/diffLayout.js';

// Whether the project sidebar is folded to a narrow rail. A person's choice (the toggle, or
// Ctrl/Cmd+B) is kept across restarts; until they make one, the sidebar folds itself in windows
// narrower than NARROW_WIDTH, where the files, versions and contents need the room.

const KEY = 'hindsight.sidebar';
const narrowQuery = `(max-width: ${NARROW_WIDTH - 1}px)`;

type Choice = 'open' | 'folded' | null;

function savedChoice(): Choice {
  try {
    const value = window.localStorage.getItem(KEY);
    return value === 'open' || value === 'folded' ? value : null;
  } catch {
    return null; // storage refused (a locked-down profile): the width decides
  }
}

export function useSidebarFolded(): [folded: boolean, toggle: () => void] {
  const [choice, setChoice] = useState<Choice>(savedChoice);
  const [narrow, setNarrow] = useState(() => window.matchMedia(narrowQuery).matches);
  useEffect(() => {
    const list = window.matchMedia(narrowQuery);
    const onChange = () => setNarrow(list.matches);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, []);
  const folded = choice === null ? narrow : choice === 'folded';
  const toggle = useCallback(() => {
    const next: Choice = folded ? 'open' : 'folded';
    setChoice(next);
    try {
      window.localStorage.setItem(KEY, next);
    } catch {
      // kept for this window only
    }
  }, [folded]);
  return [folded, toggle];
}
