import type { Writable } from 'node:stream';

// A reader that stops early (`hindsight files . | head`) closes the pipe, and the next write fails
// with EPIPE. That is the reader's choice, not a failure of the command: write nothing more, let
// long work stop, print no trace, and exit with the code the command had.

export interface ClosedOutput {
  /** Whether a reader has closed stdout. */
  readonly closed: boolean;
}

export function watchClosedOutput(stdout: Writable, stderr: Writable, onClose: () => void): ClosedOutput {
  const state = { closed: false };
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (!isClosedPipe(error)) throw error;
    if (state.closed) return;
    state.closed = true;
    onClose();
  });
  // Messages to a closed stderr (`2>&1 | head`) are dropped the same way.
  stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (!isClosedPipe(error)) throw error;
  });
  return state;
}

function isClosedPipe(error: NodeJS.ErrnoException): boolean {
  return error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED';
}
