import { ipcMain } from 'electron';
import { IPC } from '../../shared/ipcChannels.js';
import { chooseFolder } from './folderDialog.js';
import { isTrustedSender } from './security.js';
import type { Windows } from './windows.js';

// The two things a window asks main for: its port to the history process, and the native folder
// dialog. Every message is checked: it must come from the app's own page in a window's main frame.

export function registerIpc(windows: Windows): void {
  ipcMain.on(IPC.connect, (event) => {
    if (!isTrustedSender(event.senderFrame)) return;
    const window = windows.windowOf(event.sender);
    if (window) windows.connect(window);
  });
  ipcMain.handle(IPC.chooseFolder, async (event) => {
    if (!isTrustedSender(event.senderFrame)) throw new Error('Refused: the request did not come from the Hindsight window.');
    return chooseFolder(windows.windowOf(event.sender));
  });
}
