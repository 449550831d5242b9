// Errors that cross process boundaries as plain data: a code a program can switch on, a message a
// person can read, and details for the UI. Every failure the engine reports is one of these.

export const ERROR_CODES = [
  'BAD_REQUEST',
  'NOT_A_FOLDER',
  'FOLDER_NOT_FOUND',
  'FOLDER_REPLACED',
  'FOLDER_VANISHED',
  'FOLDER_IN_DATA_DIR',
  'FOLDER_IN_PROJECT',
  'PATH_OUTSIDE_ROOT',
  'PATH_INVALID',
  'NOT_FOUND',
  'VERSION_NOT_FOUND',
  'SNAPSHOT_NOT_FOUND',
  'BLOB_MISSING',
  'BLOB_CORRUPT',
  'COPY_FAILED',
  'RESTORE_FAILED',
  'CLOSE_FAILED',
  'CONFIG_CORRUPT',
  'CONFIG_UNREADABLE',
  'CONFIG_INVALID',
  'CONFIG_LOCKED',
  'STORE_BUSY',
  'STORE_TOO_NEW',
  'INDEX_UNREADABLE',
  'INDEX_IO_ERROR',
  'NO_BASELINE',
  'CONFIRM_LARGE_FOLDER',
  'DISK_FULL',
  'PERMISSION_DENIED',
  'GIT_NOT_FOUND',
  'GIT_FAILED',
  'GIT_OUTPUT_OVERFLOW',
  'GIT_TIMEOUT',
  'CANCELLED',
  'DISCONNECTED',
  'NOT_IMPLEMENTED',
  'UNAUTHORIZED',
  'REMOTE_NOT_FOUND',
  'REMOTE_EXISTS',
  'REMOTE_URL_INVALID',
  'REMOTE_CREDENTIALS_MISSING',
  'REMOTE_AUTH_FAILED',
  'REMOTE_BUCKET_MISSING',
  'REMOTE_UNREACHABLE',
  'REMOTE_CORRUPT',
  'REMOTE_OBJECT_MISSING',
  'REMOTE_PROJECT_NOT_FOUND',
  'REMOTE_FAILED',
  'CREDENTIALS_UNREADABLE',
  'KEYCHAIN_UNAVAILABLE',
  'FOLDER_NOT_EMPTY',
  'BUNDLE_CORRUPT',
  'BUNDLE_VERSION',
  'BUNDLE_PREREQUISITES',
  'BUNDLE_OTHER_PROJECT',
  'HISTORY_DIVERGED',
  'WATCH_LIMIT',
  'NOT_RECORDING',
  'FILE_CHANGED',
  'NAME_COLLISION',
  'RECORDER_RUNNING',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface HindsightErrorData {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export class HindsightError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HindsightError';
    this.code = code;
    this.details = details;
  }

  toJSON(): HindsightErrorData {
    return this.details === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, details: this.details };
  }
}

export function isHindsightError(value: unknown): value is HindsightError {
  return value instanceof HindsightError;
}

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** Rebuilds an error from its wire form; anything unrecognised becomes INTERNAL, never a throw. */
export function errorFromData(data: unknown): HindsightError {
  if (data && typeof data === 'object') {
    const { code, message, details } = data as Record<string, unknown>;
    if (isErrorCode(code) && typeof message === 'string') {
      const extra = details && typeof details === 'object' ? (details as Record<string, unknown>) : undefined;
      return new HindsightError(code, message, extra);
    }
  }
  return new HindsightError('INTERNAL', 'An unrecognised error was received.');
}
