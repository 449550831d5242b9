import * as z from 'zod';
import { parseJson } from './jsonObject.js';

// A machine's head (heads/<machine>.json): the one object a machine rewrites, and only its own.
// It lists, in order, every snapshot record and pack index that machine wrote, and where its
// line of history starts (the snapshot of another machine it was cloned from). It is written
// last in every push, so everything it names is already on the remote.

export const headSchema = z.object({
  format: z.literal(1),
  machine: z.object({ id: z.string(), name: z.string().max(256) }),
  project: z.object({ id: z.string(), name: z.string().max(1024), root: z.string().max(4096) }),
  /** The snapshot of another machine this machine's line starts from; null: it starts from nothing. */
  fork: z.object({ machine: z.string(), origin: z.number().int().positive() }).nullable(),
  updatedAt: z.number().int().nonnegative(),
  /** This machine's newest snapshot on the remote (its own id for it), 0 when none. */
  lastOrigin: z.number().int().nonnegative(),
  snapshots: z.number().int().nonnegative(),
  records: z.array(z.string()),
  indexes: z.array(z.string()),
});

export type RemoteHead = z.infer<typeof headSchema>;

export function encodeHead(head: RemoteHead): Buffer {
  return Buffer.from(`${JSON.stringify(head)}\n`, 'utf8');
}

export function decodeHead(body: Buffer, what: string): RemoteHead {
  return parseJson(body, headSchema, what);
}
