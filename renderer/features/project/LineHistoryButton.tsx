import type { VersionInfo } from '../../../shared/contract.js';
import { useApp } from '../../stores/appStore.js';
import { shortcutLabel } from '../shortcuts.js';

// "History for selection" beside a version's text: the versions that changed the lines selected
// in it (or the cursor's line), in the panel below the text (LineHistoryPanel.tsx). The same as
// Ctrl+Shift+H (shortcutList.ts), which works from inside the text too.

export const LINE_HISTORY_KEY = 'Shift+H';

export function LineHistoryButton({ path, version }: { path: string; version: VersionInfo }) {
  const selection = useApp((s) => s.textSelection);
  const open = useApp((s) => s.openLineHistory);
  // A deleted version has no lines; a link's target is not followed line by line.
  if (version.hash === null || version.type !== 'file') return null;
  const lines = selection?.path === path && selection.versionId === version.versionId ? selection : null;
  const key = shortcutLabel(LINE_HISTORY_KEY);
  const title = lines
    ? `The versions that changed ${spanWords(lines.from, lines.to)} (${key})`
    : `Select lines in the text (or put the cursor on a line) to see the versions that changed them (${key})`;
  return (
    <button
      type="button"
      className="button"
      disabled={!lines}
      title={title}
      aria-keyshortcuts={key.startsWith('⌘') ? 'Meta+Shift+H' : 'Control+Shift+H'}
      onClick={() => void open()}
    >
      History for selection
    </button>
  );
}

/** "line 4" or "lines 4–9". */
export function spanWords(from: number, to: number): string {
  return from === to ? `line ${from}` : `lines ${from}–${to}`;
}
