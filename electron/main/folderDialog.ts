import { BrowserWindow, dialog } from 'electron';

// The native open-folder dialog, attached to the window that asked (a sheet on macOS).

export async function chooseFolder(parent: BrowserWindow | null): Promise<string | null> {
  const options: Electron.OpenDialogOptions = {
    title: 'Open Folder',
    buttonLabel: 'Open',
    properties: ['openDirectory', 'createDirectory'],
  };
  const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}
