import { HindsightError, type ErrorCode } from '../../shared/errors.js';
import { fsPathString, fsPathText, type FsPath } from './paths/fsPath.js';

// Turns a file-system error into a typed error that says what failed, on which path, and why,
// in words a person can act on.

const CAUSES: Record<string, { code: ErrorCode; words: string }> = {
  ENOSPC: { code: 'DISK_FULL', words: 'the disk is full' },
  EDQUOT: { code: 'DISK_FULL', words: 'the disk quota is used up' },
  EACCES: { code: 'PERMISSION_DENIED', words: 'permission denied' },
  EPERM: { code: 'PERMISSION_DENIED', words: 'operation not permitted' },
  EROFS: { code: 'PERMISSION_DENIED', words: 'the file system is read-only' },
  ENOENT: { code: 'NOT_FOUND', words: 'it does not exist' },
  EIO: { code: 'INTERNAL', words: 'an input/output error occurred' },
};

export function fsError(action: string, path: FsPath, error: unknown, fallback: ErrorCode = 'INTERNAL'): HindsightError {
  if (error instanceof HindsightError) return error;
  const errno = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const cause = CAUSES[errno];
  const why = cause?.words ?? (error as Error | undefined)?.message ?? String(error);
  return new HindsightError(cause?.code ?? fallback, `Could not ${action} ${fsPathText(path)}: ${why}.`, { path: fsPathString(path), errno }, { cause: error });
}
