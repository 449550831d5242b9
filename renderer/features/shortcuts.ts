import { useEffect, useRef } from 'react';
import { useApp } from '../stores/appStore.js';
import { openFolderPrompt } from './start/openFolderPrompt.js';

// Window-wide shortcuts: Ctrl/Cmd+O open a folder, Ctrl/Cmd+F find a file, Ctrl/Cmd+Shift+F
// search every version, Ctrl/Cmd+1/2/3/4 the
// project's tabs, Ctrl/Cmd+Z undo the last restore (while its toast offers Undo), Ctrl/Cmd+B
// show or hide the project list.

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
      } else if (key === 'b' && !event.shiftKey) {
        event.preventDefault();
        sidebar.current();
      } else if (['1', '2', '3', '4'].includes(key) && s.currentProjectId) {
        event.preventDefault();
        s.setView((['files', 'timeline', 'store', 'search'] as const)[Number(key) - 1] ?? 'files');
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
