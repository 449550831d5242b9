import { ipcMain } from 'electron';
import { IPC } from '../../shared/ipcChannels.js';
import { chooseBundleSource, chooseBundleTarget } from './bundleDialogs.js';
import { suggestedBundleName } from './bundleName.js';
import { chooseFolder } from './folderDialog.js';
import { isTrustedSender } from './security.js';
import type { Windows } from './windows.js';
import type { Background } from './background.js';

// What a window asks main for: its port to the history process, and the native dialogs (a folder,
// a bundle to save or open). Every message is checked: it must come from the app's own page in a
// window's main frame, with arguments of the right shape.

export function registerIpc(windows: Windows, background: Background): void {
  ipcMain.on(IPC.connect, (event) => {
    if (!isTrustedSender(event.senderFrame)) return;
    const window = windows.windowOf(event.sender);
    if (window) windows.connect(window);
  });
  ipcMain.handle(IPC.chooseFolder, async (event) => {
    if (!isTrustedSender(event.senderFrame)) throw new Error('Refused: the request did not come from the Hindsight window.');
    return chooseFolder(windows.windowOf(event.sender));
  });
  ipcMain.handle(IPC.chooseBundleTarget, async (event, suggested: unknown) => {
    if (!isTrustedSender(event.senderFrame)) throw new Error('Refused: the request did not come from the Hindsight window.');
    const name = suggestedBundleName(suggested);
    if (name === null) throw new Error('Refused: the suggested bundle name is not a plain file name.');
    return chooseBundleTarget(windows.windowOf(event.sender), name);
  });
  ipcMain.handle(IPC.chooseBundleSource, async (event) => {
    if (!isTrustedSender(event.senderFrame)) throw new Error('Refused: the request did not come from the Hindsight window.');
    return chooseBundleSource(windows.windowOf(event.sender));
  });
  ipcMain.handle(IPC.setStartAtLogin, async (event, enabled: unknown) => {
    if (!isTrustedSender(event.senderFrame)) throw new Error('Refused: the request did not come from the Hindsight window.');
    if (typeof enabled !== 'boolean') throw new Error('Refused: start at login is on or off (a boolean).');
    return background.setStartAtLogin(enabled);
  });
  ipcMain.handle(IPC.closeWindow, async (event, request: unknown) => {
    if (!isTrustedSender(event.senderFrame)) throw new Error('Refused: the request did not come from the Hindsight window.');
    const quit = (request as { quit?: unknown } | null)?.quit;
    if (typeof quit !== 'boolean') throw new Error('Refused: closeWindow takes { quit: boolean }.');
    return background.closeAfterNotice(windows.windowOf(event.sender), quit);
  });
}
