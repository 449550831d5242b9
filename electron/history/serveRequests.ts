import { parentPort, workerData, type Transferable } from 'node:worker_threads';
import { lowestThreadPriority } from './threadPriority.js';
import type { FromWorker, ToWorker, WorkerSetup } from './workerEnvelope.js';
import { workerFailure } from './workerFailure.js';

// A worker thread's side of its WorkerHost (workerHost.ts): takes the priority the host asked
// for, tells it its niceness, and answers each request under the request's id, with the reply or
// the failure the host revives (workerFailure.ts).

/**
 * Answers the host's requests with `answer`; `transfer` names the buffers of a reply to move
 * rather than copy. `tell` sends progress under the request's id before its reply (the host's
 * `onProgress`).
 */
export function serveRequests<Request, Reply, Progress = never>(
  answer: (request: Request, tell: (progress: Progress) => void) => Reply | Promise<Reply>,
  transfer: (reply: Reply) => Transferable[] = () => [],
): void {
  const port = parentPort;
  if (!port) return;
  const setup = (workerData ?? { lowPriority: false }) as WorkerSetup;
  const send = (message: FromWorker<Reply, Progress>, moved: Transferable[] = []): void => port.postMessage(message, moved);
  send({ type: 'started', niceness: setup.lowPriority ? lowestThreadPriority() : null });
  port.on('message', ({ id, request }: ToWorker<Request>) => {
    void (async () => {
      try {
        const reply = await answer(request, (progress) => send({ type: 'progress', id, progress }));
        send({ type: 'reply', id, reply }, transfer(reply));
      } catch (error) {
        send({ type: 'failed', id, failure: workerFailure(error) });
      }
    })();
  });
}
