import { ipcMain, safeStorage, type MessagePortMain } from 'electron';
import { createContractClient } from '../../shared/contract/client.js';
import { remoteCredentialsRequestSchema, type RemoteCredentialsState } from '../../shared/contract/remoteCredentials.js';
import type { Result } from '../../shared/contract/result.js';
import { errorFromData, HindsightError, isHindsightError } from '../../shared/errors.js';
import { IPC } from '../../shared/ipcChannels.js';
import { CredentialsFile, type Cipher } from './credentialsFile.js';
import type { HistoryProcess } from './historyProcess.js';
import { isTrustedSender } from './security.js';

// The app's remote credentials: kept by main in the data folder, encrypted by the OS keychain
// (Electron's safeStorage; credentialsFile.ts holds the logic), handed to the history process in
// memory (the contract's useRemoteCredentials) when it starts or restarts and whenever the Store
// tab's form sets or forgets them. A window asks through IPC.remoteCredentials, checked against the
// contract's schema; answers say which remotes have credentials set, never a key or a secret.

/**
 * Electron's safeStorage as the credentials file's cipher. On Linux without a secret service
 * safeStorage falls back to a fixed key ("basic_text"): that is no keychain, so it counts as none.
 */
export const keychain: Cipher = {
  isEncryptionAvailable: () =>
    safeStorage.isEncryptionAvailable() && !(process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text'),
  encryptString: (plain) => safeStorage.encryptString(plain),
  decryptString: (sealed) => safeStorage.decryptString(sealed),
};

export function serveRemoteCredentials(history: HistoryProcess): void {
  const client = createContractClient({ reportError: (error) => console.error('hindsight: a credentials listener threw', error) });
  let file: Promise<CredentialsFile> | undefined;
  const credentialsFile = (): Promise<CredentialsFile> =>
    (file ??= client.calls.dataFolder({}).then((answer) => {
      if (!answer.ok) {
        file = undefined;
        throw errorFromData(answer.error);
      }
      return new CredentialsFile(answer.value.path, keychain);
    }));

  const handOver = async (): Promise<void> => {
    try {
      const stored = await credentialsFile();
      if (!keychain.isEncryptionAvailable()) return;
      const { credentials, unreadable } = stored.all();
      for (const [remote, pair] of credentials) await client.calls.useRemoteCredentials({ remote, credentials: pair });
      if (unreadable.length > 0)
        console.error(`hindsight: the keychain could not decrypt the credentials of ${unreadable.join(', ')}; enter them again in the Store tab.`);
    } catch (error) {
      console.error('hindsight: remote credentials were not handed to the history process:', error);
    }
  };

  history.attach({
    connected(port: MessagePortMain) {
      port.on('message', (event) => client.receive(event.data));
      port.start();
      client.connect({ send: (message) => port.postMessage(message) });
      void handOver();
    },
    disconnected(reason) {
      client.disconnect(reason);
    },
  });

  ipcMain.handle(IPC.remoteCredentials, async (event, request: unknown): Promise<Result<RemoteCredentialsState>> => {
    if (!isTrustedSender(event.senderFrame)) throw new Error('Refused: the request did not come from the Hindsight window.');
    const parsed = remoteCredentialsRequestSchema.safeParse(request);
    if (!parsed.success) {
      return { ok: false, error: { code: 'BAD_REQUEST', message: parsed.error.issues.map((issue) => issue.message).join('; ') } };
    }
    try {
      const stored = await credentialsFile();
      const asked = parsed.data;
      if (asked.action === 'set') {
        const pair = { accessKeyId: asked.accessKeyId, secretAccessKey: asked.secretAccessKey };
        stored.set(asked.remote, pair);
        await answered(client.calls.useRemoteCredentials({ remote: asked.remote, credentials: pair }));
      } else if (asked.action === 'forget') {
        stored.forget(asked.remote);
        await answered(client.calls.useRemoteCredentials({ remote: asked.remote, credentials: null }));
      }
      return { ok: true, value: { set: stored.names(), available: keychain.isEncryptionAvailable() } };
    } catch (error) {
      return { ok: false, error: isHindsightError(error) ? error.toJSON() : new HindsightError('INTERNAL', String(error)).toJSON() };
    }
  });
}

/** The history process not taking them now (restarting) loses nothing: they are handed over when it is back. */
async function answered(result: Promise<Result<unknown>>): Promise<void> {
  const answer = await result;
  if (!answer.ok) console.error(`hindsight: the history process did not take the credentials now (${answer.error.message}); it gets them when it restarts.`);
}
