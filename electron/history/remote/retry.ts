import { HindsightError } from '../../../shared/errors.js';
import { classifyRemoteError } from './remoteErrors.js';
import type { RetryNotice } from '../transferMeter.js';

// Requests to the object store are tried again when the failure may pass (server down, overloaded,
// connection reset), with exponential backoff and jitter, and never when it will not (credentials,
// missing bucket). The last failure is the one reported.

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  /** Wait before the second try; doubles each time up to maxMs. */
  baseMs: number;
  maxMs: number;
}

// A retry as progress reports it is declared with the transfer meter (transferMeter.ts), below this folder.
export type { RetryNotice };

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseMs: 500, maxMs: 8000 };

/** HINDSIGHT_REMOTE_RETRIES and HINDSIGHT_REMOTE_RETRY_MS override the defaults (tries, first wait). */
export function retryPolicyFromEnv(env: NodeJS.ProcessEnv = process.env): RetryPolicy {
  const attempts = Number(env.HINDSIGHT_REMOTE_RETRIES);
  const baseMs = Number(env.HINDSIGHT_REMOTE_RETRY_MS);
  return {
    attempts: Number.isInteger(attempts) && attempts >= 1 && attempts <= 100 ? attempts : DEFAULT_RETRY.attempts,
    baseMs: Number.isFinite(baseMs) && baseMs >= 0 && baseMs <= 60_000 ? baseMs : DEFAULT_RETRY.baseMs,
    maxMs: DEFAULT_RETRY.maxMs,
  };
}

export async function withRetry<T>(
  run: () => Promise<T>,
  context: { label: string; doing: string; policy: RetryPolicy; signal?: AbortSignal; onRetry?: (notice: RetryNotice) => void },
): Promise<T> {
  const { policy, signal } = context;
  for (let attempt = 1; ; attempt++) {
    try {
      signal?.throwIfAborted();
      return await run();
    } catch (raw) {
      if (signal?.aborted) throw signal.reason instanceof HindsightError ? signal.reason : new HindsightError('CANCELLED', 'Cancelled.');
      const { error, retryable } = classifyRemoteError(raw, context.label, context.doing);
      if (!retryable || attempt >= policy.attempts) {
        if (retryable) error.details!.attempts = attempt;
        throw error;
      }
      const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
      const waitMs = Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
      context.onRetry?.({ doing: context.doing, attempt, attempts: policy.attempts, waitMs, error });
      await sleep(waitMs, signal);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(signal?.reason instanceof HindsightError ? signal.reason : new HindsightError('CANCELLED', 'Cancelled.'));
    }
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
