import type { HindsightErrorData } from '../../shared/errors.js';

// What a command and the recorder of its data folder say to each other over the recorder's socket
// (recorderAddress.ts): one JSON object a line each way, every request carrying the token.
//
//   {"token":T,"ask":"flush","projectId":P}  the recorder writes every event it has received for P
//                                            up to the request, then answers one of FlushAnswer
//   {"token":T,"ask":"who"}                  the recorder names itself (a second recorder says whom it found)
//
// A line that is not such a request (not JSON, an unknown ask, too long) is answered with a
// BAD_REQUEST error, a wrong or missing token with UNAUTHORIZED, and the connection stays usable.

/** The longest request line read: a request is a few hundred bytes. */
export const MAX_REQUEST_BYTES = 64 * 1024;

export type RecorderRequest = { token: string; ask: 'flush'; projectId: string } | { token: string; ask: 'who' };

export type FlushAnswer =
  /** Every event received up to the request is in history.db, which now holds the folder as of `writtenThrough` (ms since 1970). */
  | { writtenThrough: number; watching: true }
  /** The project is not watched by this recorder (unknown, not copied yet, starting, gone, paused): the command rescans. */
  | { watching: false; reason: string }
  /** The project is rescanned periodically instead (the OS refused its watch, or a group could not be written): the command rescans. */
  | { watching: true; rescanning: true; reason: string };

/** Who records a data folder: its process and the command it runs (`watch --all`, `serve`, `app`). */
export interface RecorderIdentity {
  pid: number;
  command: string;
}

export type RecorderAnswer = FlushAnswer | RecorderIdentity | { error: HindsightErrorData };

/** A request line as sent (the client's side). */
export function requestLine(request: RecorderRequest): string {
  return `${JSON.stringify(request)}\n`;
}

/** A request line read back, or the BAD_REQUEST error that answers it; the token is checked by the endpoint. */
export function parseRequest(line: string): { request: RecorderRequest } | { error: HindsightErrorData } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return badRequest('a request is one JSON object on a line');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return badRequest('a request is one JSON object on a line');
  const { token, ask, projectId } = value as Record<string, unknown>;
  if (typeof token !== 'string') return { error: { code: 'UNAUTHORIZED', message: 'a request carries the token of the data folder (recorder.token)' } };
  if (ask === 'who') return { request: { token, ask } };
  if (ask !== 'flush') return badRequest(`unknown ask ${JSON.stringify(ask)}: "flush" or "who"`);
  if (typeof projectId !== 'string' || projectId === '') return badRequest('"flush" names a projectId');
  return { request: { token, ask, projectId } };
}

/** Whether an answer from the socket has one of the shapes above (anything else: the recorder is treated as absent). */
export function isFlushAnswer(value: unknown): value is FlushAnswer {
  if (typeof value !== 'object' || value === null) return false;
  const answer = value as Record<string, unknown>;
  if (answer.watching === false) return typeof answer.reason === 'string';
  if (answer.watching !== true) return false;
  return answer.rescanning === true ? typeof answer.reason === 'string' : typeof answer.writtenThrough === 'number';
}

export function isIdentity(value: unknown): value is RecorderIdentity {
  const answer = value as Partial<RecorderIdentity> | null;
  return typeof answer === 'object' && answer !== null && typeof answer.pid === 'number' && typeof answer.command === 'string';
}

function badRequest(message: string): { error: HindsightErrorData } {
  return { error: { code: 'BAD_REQUEST', message } };
}
