import { HindsightError } from '../../../shared/errors.js';

// The typed errors of config.json, worded so a person knows what happened and what to do.

const READ_CAUSES: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'an input/output error occurred',
  EISDIR: 'a folder is in its place',
};

export function unreadableError(path: string, error: unknown): HindsightError {
  const errno = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const why = READ_CAUSES[errno] ?? (error as Error | undefined)?.message ?? String(error);
  return new HindsightError(
    'CONFIG_UNREADABLE',
    `Could not read the config ${path}: ${why}. Fix it (or move it away) and try again; no restart is needed.`,
    { path, errno },
    { cause: error },
  );
}

export function corruptError(path: string, reason: string, backup: { path?: string; failure?: string }): HindsightError {
  const kept = backup.path
    ? `Its bytes were kept in ${backup.path}.`
    : `Hindsight could not keep a copy of it (${backup.failure ?? 'unknown error'}), so copy it somewhere safe first.`;
  return new HindsightError(
    'CONFIG_CORRUPT',
    `The config ${path} cannot be used: ${reason}. ${kept} Hindsight will not change config.json until it is fixed or removed.`,
    { path, reason, backupPath: backup.path ?? null },
  );
}

export function invalidError(message: string, details: Record<string, unknown>): HindsightError {
  return new HindsightError('CONFIG_INVALID', message, details);
}
