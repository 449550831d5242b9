import { gunzipSync, gzipSync } from 'node:zlib';
import type * as z from 'zod';
import { HindsightError } from '../../../shared/errors.js';
import { sha256 } from './packFormat.js';

// The small metadata objects of the layout (indexes, snapshot records, heads) are JSON, gzipped
// where named .gz. Everything read back is untrusted: its hash is checked against its name when
// the name carries one, its size is bounded, and its shape is checked by a schema before use.

const MAX_JSON_BYTES = 512 * 1024 * 1024;

export function encodeGzipJson(value: unknown): { body: Buffer; hash: string } {
  const body = gzipSync(Buffer.from(JSON.stringify(value), 'utf8'), { level: 6 });
  return { body, hash: sha256(body) };
}

export function decodeGzipJson<T>(body: Buffer, schema: z.ZodType<T>, what: string, expectedHash?: string): T {
  if (expectedHash !== undefined && sha256(body) !== expectedHash) throw damaged(what, 'its bytes do not match the hash in its name');
  let text: Buffer;
  try {
    text = gunzipSync(body, { maxOutputLength: MAX_JSON_BYTES });
  } catch {
    throw damaged(what, 'it does not decompress');
  }
  return parseJson(text, schema, what);
}

export function parseJson<T>(text: Buffer, schema: z.ZodType<T>, what: string): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.toString('utf8'));
  } catch {
    throw damaged(what, 'it is not JSON');
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw damaged(what, result.error.issues[0]?.message ?? 'unexpected shape');
  return result.data;
}

function damaged(what: string, why: string): HindsightError {
  return new HindsightError('REMOTE_CORRUPT', `The remote's ${what} is damaged: ${why}.`, { object: what });
}
