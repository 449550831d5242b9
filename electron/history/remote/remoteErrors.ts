import { HindsightError, isHindsightError } from '../../../shared/errors.js';

// Turns what an S3 client throws into one HindsightError a person can act on, and says whether
// trying again could help: a server that is down or overloaded may come back; wrong credentials
// or a missing bucket will not.

export interface ClassifiedError {
  error: HindsightError;
  retryable: boolean;
}

const AUTH_NAMES = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'AccessDenied',
  'InvalidToken',
  'ExpiredToken',
  'TokenRefreshRequired',
  'AuthorizationHeaderMalformed',
  'Forbidden',
]);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
  'ENETDOWN',
  'EHOSTDOWN',
]);
const TRANSIENT_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeTooSkewed',
  'SlowDown',
  'ServiceUnavailable',
  'InternalError',
  'ThrottlingException',
  'RequestTimeoutException',
]);

interface SdkLikeError {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
  cause?: unknown;
}

/** `label` names the store, `doing` the request ("uploading data/ab/abc…"). */
export function classifyRemoteError(raw: unknown, label: string, doing: string): ClassifiedError {
  if (isHindsightError(raw)) return { error: raw, retryable: false };
  const e = (raw ?? {}) as SdkLikeError;
  const name = e.name ?? '';
  const status = e.$metadata?.httpStatusCode;
  const code = networkCode(e);
  const details = { remote: label, doing, status, reason: name || code || undefined };
  const make = (errorCode: ConstructorParameters<typeof HindsightError>[0], message: string) => new HindsightError(errorCode, message, details, { cause: raw });

  if (name === 'AbortError' || code === 'ABORT_ERR') return { error: new HindsightError('CANCELLED', 'Cancelled.'), retryable: false };
  if (name === 'CredentialsProviderError') {
    return {
      error: make('REMOTE_CREDENTIALS_MISSING', `No credentials for ${label}: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE.`),
      retryable: false,
    };
  }
  if (AUTH_NAMES.has(name) || status === 403 || status === 401) {
    return {
      error: make(
        'REMOTE_AUTH_FAILED',
        `${label} refused the credentials while ${doing} (${name || status}): check the access key, the secret and the bucket's permissions.`,
      ),
      retryable: false,
    };
  }
  if (name === 'NoSuchBucket') {
    return { error: make('REMOTE_BUCKET_MISSING', `The bucket of ${label} does not exist. Create it first.`), retryable: false };
  }
  if (name === 'NoSuchKey' || name === 'NotFound' || status === 404) {
    return { error: make('REMOTE_OBJECT_MISSING', `${label} has no object where one was expected while ${doing}.`), retryable: false };
  }
  if (code && NETWORK_CODES.has(code)) {
    return { error: make('REMOTE_UNREACHABLE', `Cannot reach ${label} while ${doing} (${code}).`), retryable: true };
  }
  if (TRANSIENT_NAMES.has(name) || status === 429 || (status !== undefined && status >= 500)) {
    return { error: make('REMOTE_UNREACHABLE', `${label} did not answer properly while ${doing} (${name || status}).`), retryable: true };
  }
  return { error: make('REMOTE_FAILED', `${label} failed while ${doing}: ${e.message ?? name ?? 'unknown error'}`), retryable: false };
}

/** The errno-style code of a network failure, wherever the client put it. */
function networkCode(e: SdkLikeError): string | undefined {
  for (let current: SdkLikeError | undefined = e, depth = 0; current && depth < 4; current = current.cause as SdkLikeError | undefined, depth++) {
    if (typeof current.code === 'string') return current.code;
    const errors = (current as { errors?: SdkLikeError[] }).errors;
    if (Array.isArray(errors) && typeof errors[0]?.code === 'string') return errors[0].code;
  }
  return undefined;
}
