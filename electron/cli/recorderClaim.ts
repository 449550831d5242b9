import { HindsightError } from '../../shared/errors.js';
import { heldMessage, RecorderEndpoint, type EndpointHandlers } from '../history/recorder/recorderEndpoint.js';

// One recorder per data folder: `watch --all` claims the data folder's recorder socket before it
// catches anything up, and refuses (exit 1, naming the recorder it found) when another process
// records the data folder already; a socket left by a recorder that was killed is taken over.

export async function claimRecording(dataDir: string, handlers: EndpointHandlers): Promise<RecorderEndpoint> {
  const claim = await RecorderEndpoint.claim(dataDir, handlers);
  if ('endpoint' in claim) return claim.endpoint;
  throw new HindsightError('RECORDER_RUNNING', heldMessage(claim), { pid: claim.heldBy?.pid ?? null, command: claim.heldBy?.command ?? null });
}
