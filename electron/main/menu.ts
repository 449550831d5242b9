import { app, Menu, type MenuItemConstructorOptions } from 'electron';
import type { ProjectSummary } from '../../shared/contract.js';
import { openExternalSafely } from './security.js';

// The application menu: File (Open Folder..., Open Recent, Export History…, Import History…, Close), Edit, View, Window, Help, with
// the platform's standard accelerators. Open Recent lists known projects, most recent first.

export interface MenuActions {
  openFolder(): void;
  openRecent(root: string): void;
  closeProject(): void;
  exportHistory(): void;
  importHistory(): void;
}

const HELP_URL = 'https://github.com/hindsight-app/hindsight#readme';

export function buildMenu(actions: MenuActions, recent: readonly ProjectSummary[]): Menu {
  const isMac = process.platform === 'darwin';
  const recentItems: MenuItemConstructorOptions[] = recent.length
    ? recent.slice(0, 10).map((project) => ({ label: project.root, click: () => actions.openRecent(project.root) }))
    : [{ label: 'No Recent Folders', enabled: false }];
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: '&File',
      submenu: [
        { label: 'Open Folder...', accelerator: 'CmdOrCtrl+O', click: () => actions.openFolder() },
        { label: 'Open Recent', submenu: recentItems },
        { type: 'separator' },
        { label: 'Export History…', click: () => actions.exportHistory() },
        { label: 'Import History…', click: () => actions.importHistory() },
        { type: 'separator' },
        { label: 'Close', accelerator: 'CmdOrCtrl+W', click: () => actions.closeProject() },
        ...(isMac ? [] : [{ type: 'separator' as const }, { role: 'quit' as const }]),
      ],
    },
    { role: 'editMenu', label: '&Edit' },
    {
      label: '&View',
      submenu: [
        { role: 'reload' },
        { role: 'forceReload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu', label: '&Window' },
    {
      role: 'help',
      label: '&Help',
      submenu: [
        { label: 'Learn More', click: () => openExternalSafely(HELP_URL) },
        ...(isMac ? [] : [{ type: 'separator' as const }, { label: `About ${app.name}`, role: 'about' as const }]),
      ],
    },
  ];
  return Menu.buildFromTemplate(template);
}
