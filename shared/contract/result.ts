import type { HindsightErrorData } from '../errors.js';

// Every call's answer: a value, or a typed error that survived the trip (code, message, details).
// A call never rejects: a transport that breaks answers with an error too, so the UI has one path.

export type Result<T> = { ok: true; value: T } | { ok: false; error: HindsightErrorData };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(error: HindsightErrorData): Result<T> {
  return { ok: false, error };
}
