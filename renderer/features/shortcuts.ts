import { useEffect, useRef } from 'react';
import { useApp } from '../stores/appStore.js';
import { PROJECT_VIEWS } from '../stores/projectsSlice.js';
import { useShortcutsSheet } from './ShortcutsSheet.js';
import { openFolderPrompt } from './start/openFolderPrompt.js';

// Window-wide shortcuts (the whole list, with the sheet that shows it: shortcutList.ts): Ctrl/Cmd+O
// open a folder, Ctrl/Cmd+F find a file, Ctrl/Cmd+Shift+F search every version, Ctrl/Cmd+1/2/3/4
// the project's tabs in PROJECT_VIEWS' order (projectTabs.ts), Ctrl/Cmd+Z undo the last restore (while its toast offers Undo), Ctrl/Cmd+B
// show or hide the project list, Ctrl/Cmd+Shift+H the history of the lines selected in a version's
// text (from inside the text too); without a modifier, outside a text field: ? the shortcuts sheet,
// in the Files view R restore, P pin, C compare the selected version with the current file; in
// the Timeline R restore the project to the selected snapshot, P pin it.

const isMac = navigator.platform.toLowerCase().includes('mac');

export function shortcutLabel(key: string): string {
  return isMac ? `⌘${key}` : `Ctrl+${key}`;
}

function editingText(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || target.matches('input, textarea, select, .cm-content'));
}

export function useShortcuts({ toggleSidebar }: { toggleSidebar: () => void }): void {
  const sidebar = useRef(toggleSidebar);
  sidebar.current = toggleSidebar;
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const mod = isMac ? event.metaKey : event.ctrlKey;
      if (!mod && !event.altKey && !event.ctrlKey && !event.metaKey) return plainKey(event);
      if (!mod || event.altKey) return;
      const s = useApp.getState();
      const key = event.key.toLowerCase();
      if (key === 'o') {
        event.preventDefault();
        void openFolderPrompt();
      } else if (key === 'f' && event.shiftKey && s.currentProjectId) {
        event.preventDefault();
        const box = document.getElementById('history-search') as HTMLInputElement | null;
        box?.focus();
        box?.select();
      } else if (key === 'f' && s.currentProjectId) {
        event.preventDefault();
        s.setView('files');
        requestAnimationFrame(() => document.getElementById('file-filter')?.focus());
      } else if (key === 'h' && event.shiftKey && s.currentProjectId && s.view === 'files') {
        event.preventDefault();
        void s.openLineHistory().then((opened) => {
          if (!opened) s.pushToast({ tone: 'info', message: "Select lines in a version's text (or put the cursor on a line) first." });
        });
      } else if (key === 'b' && !event.shiftKey) {
        event.preventDefault();
        sidebar.current();
      } else if (/^[1-9]$/.test(key) && PROJECT_VIEWS[Number(key) - 1] && s.currentProjectId) {
        event.preventDefault();
        s.setView(PROJECT_VIEWS[Number(key) - 1]!);
      } else if (key === 'z' && !event.shiftKey && !editingText(event.target)) {
        const undo = [...s.toasts].reverse().find((t) => t.action?.label === 'Undo');
        if (!undo) return;
        event.preventDefault();
        s.dismissToast(undo.id);
        undo.action?.run();
      }
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

/** A key pressed alone: never while typing, nor while a dialog is open (its keys are its own). */
function plainKey(event: KeyboardEvent): void {
  if (event.defaultPrevented || editingText(event.target) || document.querySelector('[role="dialog"]')) return;
  if (event.key === '?') {
    event.preventDefault();
    useShortcutsSheet.getState().setOpen(true);
    return;
  }
  const s = useApp.getState();
  const key = event.key.toLowerCase();
  if (s.currentProjectId && s.view === 'timeline' && s.selectedSnapshotId !== null && (key === 'r' || key === 'p')) {
    event.preventDefault();
    if (key === 'r') s.beginSnapshotRestore('project');
    else document.querySelector<HTMLButtonElement>('.snapshot-detail [data-pin-toggle]:not([disabled])')?.click();
    return;
  }
  if (!s.currentProjectId || s.view !== 'files' || s.selectedVersionId === null) return;
  if (key === 'r') {
    event.preventDefault();
    const restore = document.querySelector<HTMLButtonElement>('.restore-action .button-primary');
    if (restore && !restore.disabled) restore.click();
  } else if (key === 'p') {
    event.preventDefault();
    document.querySelector<HTMLButtonElement>('.content-pane [data-pin-toggle]:not([disabled])')?.click();
  } else if (key === 'c') {
    event.preventDefault();
    if (s.comparePicks.length === 2) s.clearPicks();
    else s.setCompareWith(s.compareWith === 'disk' ? 'none' : 'disk');
  }
}
