import { HindsightError } from '../../../shared/errors.js';

// The OS refusing a watch because a limit is reached (on Linux: inotify's watches, ENOSPC, or its
// instances, EMFILE). Such a project is rescanned periodically instead, and the user is told once,
// with the fix: a limit only the user can raise.

const FIXES: Record<string, string> = {
  ENOSPC: 'raise fs.inotify.max_user_watches (sudo sysctl fs.inotify.max_user_watches=524288)',
  EMFILE: 'raise fs.inotify.max_user_instances or the open-file limit (ulimit -n)',
};

export function isWatchLimit(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && code in FIXES;
}

/** What the viewer and `watch --all` say once for a project rescanned instead of watched. */
export function watchLimitError(root: string, error: unknown, everySeconds: number): HindsightError {
  const code = (error as NodeJS.ErrnoException).code!;
  return new HindsightError(
    'WATCH_LIMIT',
    `The system's limit of file watches is reached (${code}): ${root} is rescanned every ${everySeconds} s instead of watched; to watch it live, ${FIXES[code]}.`,
    { root, errno: code, everySeconds },
  );
}
