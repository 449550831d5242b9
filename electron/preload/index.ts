import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createContractClient } from '../../shared/contract/client.js';
import { HindsightError } from '../../shared/errors.js';
import type { AppCommand, HindsightEvent } from '../../shared/contract.js';
import type { FileLike, HindsightApi } from '../../shared/hindsightApi.js';
import { IPC, VERSION_ARG } from '../../shared/ipcChannels.js';
import type { RemoteCredentialsRequest, RemoteCredentialsState } from '../../shared/contract/remoteCredentials.js';
import type { Result } from '../../shared/contract/result.js';

// window.hindsight in the Electron app: one function per contract call, one event subscription,
// the native folder dialog and dropped-folder paths. Calls go straight to the history process on
// the MessagePort main hands over; ipcRenderer itself never reaches the page.

const client = createContractClient({ reportError: (error) => console.error('hindsight: an event listener threw', error) });

ipcRenderer.on(IPC.port, (event) => {
  const [port] = event.ports;
  if (!port) return;
  port.onmessage = (message: { data: unknown }) => client.receive(message.data);
  client.connect({ send: (message) => port.postMessage(message) });
});
ipcRenderer.on(IPC.disconnected, (_event, reason: unknown) => client.disconnect(typeof reason === 'string' ? reason : 'it exited'));
// A folder from the command line can arrive before the viewer subscribes: held until it does.
let listening = false;
const heldCommands: AppCommand[] = [];
ipcRenderer.on(IPC.appCommand, (_event, command: AppCommand) => {
  if (listening) client.emit({ event: 'appCommand', payload: command });
  else heldCommands.push(command);
});
ipcRenderer.send(IPC.connect);

const version = process.argv.find((arg) => arg.startsWith(VERSION_ARG))?.slice(VERSION_ARG.length) ?? '0.0.0';

const api: HindsightApi = {
  ...client.calls,
  host: { kind: 'electron', nativeDialogs: true, dropPaths: true, platform: process.platform, version },
  onEvent: (listener: (event: HindsightEvent) => void) => {
    const unsubscribe = client.onEvent(listener);
    if (!listening) {
      listening = true;
      setTimeout(() => {
        for (const command of heldCommands.splice(0)) client.emit({ event: 'appCommand', payload: command });
      }, 0);
    }
    return unsubscribe;
  },
  chooseFolder: () => ipcRenderer.invoke(IPC.chooseFolder) as Promise<string | null>,
  chooseBundleTarget: (suggestedName: string) => ipcRenderer.invoke(IPC.chooseBundleTarget, suggestedName) as Promise<string | null>,
  chooseBundleSource: () => ipcRenderer.invoke(IPC.chooseBundleSource) as Promise<string | null>,
  // Checked by main against the contract's schema; the answer never carries a key or a secret.
  remoteCredentials: (request: RemoteCredentialsRequest) => ipcRenderer.invoke(IPC.remoteCredentials, request) as Promise<Result<RemoteCredentialsState>>,
  setStartAtLogin: (enabled: boolean) => ipcRenderer.invoke(IPC.setStartAtLogin, enabled) as Promise<Result<null>>,
  closeWindow: (request: { quit: boolean }) => ipcRenderer.invoke(IPC.closeWindow, request) as Promise<Result<null>>,
  // The app has paths: a bundle is saved and opened through the dialogs and the contract's calls.
  downloadHistory: async () => ({ ok: false, error: notInApp('downloadHistory') }),
  uploadHistory: async () => ({ ok: false, error: notInApp('uploadHistory') }),
  browseFolders: async () => ({ ok: false, error: new HindsightError('NOT_IMPLEMENTED', 'The app picks folders with its native dialog.').toJSON() }),
  pathForFile: (file: FileLike) => {
    try {
      return webUtils.getPathForFile(file as unknown as File) || null;
    } catch {
      return null;
    }
  },
};

function notInApp(name: string) {
  return new HindsightError('NOT_IMPLEMENTED', `${name} is the browser host's; the app exports and imports through its save and open dialogs.`).toJSON();
}

contextBridge.exposeInMainWorld('hindsight', api);
