import { chmodSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { HindsightErrorData } from '../../../shared/errors.js';
import { errorData } from '../errorData.js';
import { PRIVATE_FILE_MODE, writePrivateFileAtomic } from '../privateModes.js';
import { recorderAddress, type RecorderAddress } from '../recorderAddress.js';
import { exchange, RECORDER_ANSWER_MS } from '../recorderClient.js';
import { isIdentity, MAX_REQUEST_BYTES, parseRequest, type FlushAnswer, type RecorderAnswer, type RecorderIdentity } from '../recorderProtocol.js';
import { newToken, sameToken } from '../secretToken.js';
import { count } from '../trace.js';

// The recorder of a data folder listens on its socket (recorderAddress.ts) so that a command asks
// it instead of walking the tree again (recorderProtocol.ts), and so that a second recorder of the
// same data folder finds it and stands down. Claiming the socket is how a recorder knows it is the
// only one: a socket nobody answers a connection on (its recorder was killed) is removed and
// taken; one that accepts the connection belongs to a live recorder, answering or not (a stopped
// one keeps its claim). The token is new at each claim, written 0600 into the data folder after
// the socket listens, so a command reads the token of the recorder it reaches.

export interface EndpointHandlers {
  /** What the process runs (`watch --all`, `serve`, `app`): a second recorder names it. */
  command: string;
  /** Writes every event received for the project up to now, and says how fresh its history is. */
  flush: (projectId: string) => Promise<FlushAnswer>;
}

/** The socket claimed, or the recorder that holds it (null: it accepted the connection but did not say who it is). */
export type Claim = { endpoint: RecorderEndpoint } | { heldBy: RecorderIdentity | null; socket: string };

export class RecorderEndpoint {
  private readonly token = newToken();
  private readonly clients = new Set<Socket>();
  /** The socket file's inode once listening: a close removes that file only, never a later recorder's. */
  private inode = 0;

  private constructor(
    private readonly address: RecorderAddress,
    private readonly server: Server,
    private readonly handlers: EndpointHandlers,
  ) {}

  /** Listens for the data folder, or names the recorder that already does. */
  static async claim(dataDir: string, handlers: EndpointHandlers): Promise<Claim> {
    const address = recorderAddress(dataDir);
    for (let attempt = 0; ; attempt++) {
      const server = createServer();
      const endpoint = new RecorderEndpoint(address, server, handlers);
      if (await endpoint.listen()) {
        endpoint.publish();
        return { endpoint };
      }
      const held = await heldBy(address);
      // Taken by another recorder starting at the same moment, or held by a live one.
      if (held !== 'stale' || attempt > 0) return { heldBy: held === 'stale' ? null : held, socket: address.socket };
      count('recorder.staleSockets');
      rmSync(address.socket, { force: true });
    }
  }

  /** Stops listening, and removes the socket and the token when they are still this recorder's. */
  async close(): Promise<void> {
    for (const client of this.clients) client.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    try {
      if (statSync(this.address.socket).ino === this.inode) rmSync(this.address.socket, { force: true });
    } catch {
      // Removed already.
    }
    try {
      if (readFileSync(this.address.tokenFile, 'utf8').trim() === this.token) rmSync(this.address.tokenFile, { force: true });
    } catch {
      // Removed already.
    }
  }

  private listen(): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error)));
      this.server.listen(this.address.socket, () => resolve(true));
    });
  }

  private publish(): void {
    // Inside a 0700 folder already; 0600 says the same of the socket itself.
    chmodSync(this.address.socket, PRIVATE_FILE_MODE);
    this.inode = statSync(this.address.socket).ino;
    writePrivateFileAtomic(this.address.tokenFile, `${this.token}\n`);
    this.server.on('connection', (socket) => this.serve(socket));
    // The recorder's watches keep its process alive, never this socket.
    this.server.unref();
  }

  /** Answers each request line of a connection in order; nothing a client sends stops the recorder. */
  private serve(socket: Socket): void {
    this.clients.add(socket);
    socket.setEncoding('utf8');
    let pending = '';
    let answering = Promise.resolve();
    const reply = (answer: RecorderAnswer) => {
      if (!socket.destroyed) socket.write(`${JSON.stringify(answer)}\n`);
    };
    socket.on('data', (chunk: string) => {
      pending += chunk;
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        answering = answering.then(async () => reply(await this.answer(line)));
      }
      if (pending.length > MAX_REQUEST_BYTES) {
        pending = '';
        answering = answering.then(() => {
          reply({ error: { code: 'BAD_REQUEST', message: `a request line is at most ${MAX_REQUEST_BYTES} bytes` } });
          socket.end();
        });
      }
    });
    // A client gone mid-answer is no failure of the recorder's.
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.clients.delete(socket));
  }

  private async answer(line: string): Promise<RecorderAnswer> {
    count('recorder.answers');
    const read = parseRequest(line);
    if ('error' in read) return refused(read.error);
    if (!sameToken(read.request.token, this.token)) return refused({ code: 'UNAUTHORIZED', message: 'the token is wrong' });
    if (read.request.ask === 'who') return { pid: process.pid, command: this.handlers.command };
    try {
      return await this.handlers.flush(read.request.projectId);
    } catch (error) {
      return { error: errorData(error) };
    }
  }
}

/** The line a second recorder says instead of recording: who records the data folder already. */
export function heldMessage(held: Extract<Claim, { heldBy: unknown }>): string {
  const who = held.heldBy ? `process ${held.heldBy.pid} (${held.heldBy.command})` : 'another process, which did not say who it is (stopped?),';
  return `${who} records the projects of this data folder already (its socket: ${held.socket}); stop it to record here instead`;
}

/**
 * The claim of a process that shows the viewer besides recording (the app, `serve`, `view`):
 * beside another recorder of the data folder it records nothing (said once); a socket that cannot
 * be made is said, and it records without one (commands then rescan as without a recorder).
 */
export async function claimToRecord(
  dataDir: string,
  handlers: EndpointHandlers,
  say: (line: string) => void,
): Promise<{ record: boolean; close: () => Promise<void> }> {
  try {
    const claim = await RecorderEndpoint.claim(dataDir, handlers);
    if ('endpoint' in claim) return { record: true, close: () => claim.endpoint.close() };
    say(`not recording: ${heldMessage(claim)}`);
  } catch (error) {
    say(`recording without the recorder's socket (commands rescan instead of asking it): ${errorData(error).message}`);
    return { record: true, close: async () => undefined };
  }
  return { record: false, close: async () => undefined };
}

function refused(error: HindsightErrorData): RecorderAnswer {
  count('recorder.refusals');
  return { error };
}

/** Who holds the socket: a live recorder (named when it says who it is), or 'stale' when nobody accepts a connection there. */
async function heldBy(address: RecorderAddress): Promise<RecorderIdentity | null | 'stale'> {
  let token = '';
  try {
    token = readFileSync(address.tokenFile, 'utf8').trim();
  } catch {
    // Asked without: a live recorder still accepts the connection, which is all a claim needs to know.
  }
  const found = await exchange(address.socket, { token, ask: 'who' }, RECORDER_ANSWER_MS);
  if (!found.listening) return 'stale';
  return isIdentity(found.answer) ? { pid: found.answer.pid, command: found.answer.command } : null;
}
