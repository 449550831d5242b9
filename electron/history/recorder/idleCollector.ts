import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { count } from '../trace.js';

// A recorder's start (a catch-up rescan per project: walks, stat caches, versions compared) leaves
// a heap full of dead objects that an idle process never collects: V8 collects as it allocates, and
// a recorder waiting for the next change allocates next to nothing. Measured over ten projects
// (95,000 files): 65-123 MiB of heap in use for as long as nothing happened, 24-25 MiB after one
// full collection (V8 gives the pages back to the OS some seconds later). So once the recorder has
// had nothing to do for a while (after its start, after a change group), it asks V8 for one.

/** How long the recorder must have been idle before it collects. */
export const IDLE_COLLECT_MS = 10_000;

let fullCollection: (() => void) | undefined;

/** V8's full collection: `gc`, exposed for the moment it takes to fetch it (no flag at the process's start). */
function collector(): () => void {
  if (fullCollection) return fullCollection;
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return (fullCollection = exposed);
  setFlagsFromString('--expose-gc');
  fullCollection = runInNewContext('gc') as () => void;
  setFlagsFromString('--no-expose-gc');
  return fullCollection;
}

export class IdleCollector {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly afterMs = IDLE_COLLECT_MS) {}

  /** Work just happened: the collection waits for `afterMs` of quiet from now. */
  worked(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.collect(), this.afterMs);
    // Never what keeps the process alive.
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private collect(): void {
    this.timer = undefined;
    count('idle.wakeups');
    count('recorder.idleCollections');
    collector()();
  }
}
