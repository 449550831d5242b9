import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { recorderAddress, type RecorderAddress } from './recorderAddress.js';
import { isFlushAnswer, requestLine, type FlushAnswer, type RecorderRequest } from './recorderProtocol.js';
import { count } from './trace.js';

// A command's side of the recorder's socket (recorderProtocol.ts): one request, one answer line,
// within a bound. No socket, a refused connection (a recorder killed left its socket behind), no
// token, an answer that is not one, or none within the bound (a recorder stopped or busy): the
// recorder is absent, and the command does what it does without one.

/** How long a command waits for the recorder's answer before it goes on without it. */
export const RECORDER_ANSWER_MS = 2000;

/** What a connection found: nobody listening, or a listener and its answer (null: none within the bound, or not one). */
export type Exchange = { listening: false } | { listening: true; answer: unknown };

/** Asks the recorder of `dataDir` to write what it heard for the project: its answer, or null when no recorder answers. */
export async function askToFlush(dataDir: string, projectId: string, timeoutMs = RECORDER_ANSWER_MS): Promise<FlushAnswer | null> {
  const answer = await ask(dataDir, { ask: 'flush', projectId }, timeoutMs);
  return isFlushAnswer(answer) ? answer : null;
}

async function ask(dataDir: string, request: { ask: 'flush'; projectId: string } | { ask: 'who' }, timeoutMs: number): Promise<unknown> {
  let address: RecorderAddress;
  let token: string;
  try {
    address = recorderAddress(dataDir);
    token = readFileSync(address.tokenFile, 'utf8').trim();
  } catch {
    // No recorder has listened for this data folder, this user cannot read its token, or the
    // socket's folder is not this user's own: no recorder is asked.
    return null;
  }
  const { socket } = address;
  const found = await exchange(socket, { ...request, token } as RecorderRequest, timeoutMs);
  return found.listening ? found.answer : null;
}

/** One request over the socket at `path`: whether anybody listens there, and the answer line parsed. */
export function exchange(path: string, request: RecorderRequest, timeoutMs: number): Promise<Exchange> {
  count('recorder.requests');
  return new Promise((resolve) => {
    const socket = connect(path);
    let connected = false;
    let text = '';
    const finish = (found: Exchange) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(found);
    };
    // A recorder that is stopped (SIGSTOP) or stuck accepts the connection and never answers.
    const timer = setTimeout(() => {
      count('recorder.timeouts');
      finish(connected ? { listening: true, answer: null } : { listening: false });
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      connected = true;
      socket.write(requestLine(request));
    });
    socket.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) finish({ listening: true, answer: parsed(text.slice(0, end)) });
    });
    // ENOENT: nothing there; ECONNREFUSED: a socket file nobody listens on (its recorder died).
    socket.on('error', () => finish(connected ? { listening: true, answer: null } : { listening: false }));
    socket.on('close', () => finish(connected ? { listening: true, answer: null } : { listening: false }));
  });
}

function parsed(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}
