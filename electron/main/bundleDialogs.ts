import { BrowserWindow, dialog } from 'electron';

// The native save and open dialogs for a history bundle (Export history…, Import history…),
// attached to the window that asked. The suggested name comes from the page: ipc.ts checks it
// (bundleName.ts) so it can only ever be a plain file name in the dialog's folder.

const FILTERS: Electron.FileFilter[] = [
  { name: 'Hindsight history bundle', extensions: ['hsb'] },
  { name: 'All files', extensions: ['*'] },
];

export async function chooseBundleTarget(parent: BrowserWindow | null, suggestedName: string): Promise<string | null> {
  const options: Electron.SaveDialogOptions = {
    title: 'Export history',
    buttonLabel: 'Export',
    defaultPath: suggestedName,
    filters: FILTERS,
    properties: ['createDirectory', 'showOverwriteConfirmation'],
  };
  const result = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
  return result.canceled || !result.filePath ? null : result.filePath;
}

export async function chooseBundleSource(parent: BrowserWindow | null): Promise<string | null> {
  const options: Electron.OpenDialogOptions = {
    title: 'Import history',
    buttonLabel: 'Import',
    filters: FILTERS,
    properties: ['openFile'],
  };
  const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}
