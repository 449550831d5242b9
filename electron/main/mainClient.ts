import type { MessagePortMain } from 'electron';
import { createContractClient, type ContractClient } from '../../shared/contract/client.js';
import type { HistoryProcess } from './historyProcess.js';

// Main's own line to the history process, for what main needs to know itself (the Open Recent
// menu). The same client the windows use, on a MessagePortMain.

export function connectMain(history: HistoryProcess): ContractClient {
  const client = createContractClient({ reportError: (error) => console.error('hindsight: a main-process listener threw', error) });
  history.attach({
    connected(port: MessagePortMain) {
      port.on('message', (event) => client.receive(event.data));
      port.start();
      client.connect({ send: (message) => port.postMessage(message) });
    },
    disconnected(reason) {
      client.disconnect(reason);
    },
  });
  return client;
}
