import type { UnreadablePath } from '../../../shared/history.js';
import { comparePaths } from '../../../shared/projectPath.js';

// A path of the project that could not be read is reported, never fatal: the rest is recorded,
// and the next rescan tries it again. Only errors about reading that one path count; a failure
// of the store itself (a full disk) still stops the whole operation.

const READ_FAILURES: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'input/output error',
  EAGAIN: 'locked by another program',
  EBUSY: 'busy',
  ETXTBSY: 'busy',
  EOVERFLOW: 'too large for this system',
};

/** The reason in words when an error is a failure to read one path, else undefined. */
export function unreadableReason(error: unknown, what: 'file' | 'folder'): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const words = code === undefined ? undefined : READ_FAILURES[code];
  if (words === undefined) return undefined;
  return what === 'folder' ? `folder cannot be listed: ${words} (${code})` : `${words} (${code})`;
}

export function byPath(list: readonly UnreadablePath[]): UnreadablePath[] {
  return [...list].sort((a, b) => comparePaths(a.path, b.path));
}
