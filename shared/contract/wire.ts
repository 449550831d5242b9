import * as z from 'zod';
import type { HindsightEvent } from '../contract.js';
import type { Result } from './result.js';

// The messages on a port or socket. A caller sends a call with its own id; the history process
// answers with that id; events flow the other way unasked. The same shapes travel as structured
// clones (MessagePort) and as JSON (WebSocket).

export interface CallMessage {
  kind: 'call';
  id: number;
  call: string;
  args: unknown;
}

export interface ResultMessage {
  kind: 'result';
  id: number;
  result: Result<unknown>;
}

export type EventMessage = { kind: 'event' } & HindsightEvent;

export type ServerMessage = ResultMessage | EventMessage;

/** The envelope of a call, checked before the call's own schema (the id must come back). */
export const callMessageSchema = z.object({
  kind: z.literal('call'),
  id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  call: z.string().max(100),
  args: z.unknown(),
});
