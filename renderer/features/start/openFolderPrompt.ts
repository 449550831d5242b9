import { asError, chooseFolder, hasNativeDialogs } from '../../api/hindsight.js';
import { useApp } from '../../stores/appStore.js';

// "Open folder...": the native dialog where the host has one (Electron), else the in-app dialog.

export async function openFolderPrompt(): Promise<void> {
  const s = useApp.getState();
  if (!hasNativeDialogs()) {
    s.setOpenDialog(true);
    return;
  }
  try {
    const folder = await chooseFolder();
    if (folder) await s.openFolder(folder);
  } catch (error) {
    s.pushToast({ tone: 'error', message: asError(error).message });
  }
}
