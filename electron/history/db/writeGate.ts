import { count } from '../trace.js';

// Who may write to a history.db between two connections of one process: the history process's
// own and the search index build's, in a worker thread. WAL lets both connections write, one at a
// time, but a deferred transaction that read before it writes fails at once (SQLITE_BUSY_SNAPSHOT,
// no busy wait) when the other connection committed in between: a recorded change would fail now
// and then. So each takes this gate, in shared memory, around its transactions: the history
// process's transactions wait for the build's to end, and ask it to commit early (`wanted`); the
// build waits while the history process writes and leaves as soon as it is asked to.

const FREE = 0;
const MAIN = 1;
const BUILD = 2;
/** Slots of the shared Int32Array: who holds the gate, and whether the history process is waiting. */
const HOLDER = 0;
const WANTED = 1;
/** How long the history process waits for a build that stopped answering before it goes on anyway (SQLite's busy wait still applies). */
const MAIN_WAIT_MS = 10_000;

export class WriteGate {
  readonly #cells: Int32Array;
  /** Nested transactions of the history process (savepoints) take the gate once. */
  #depth = 0;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(8)) {
    this.#cells = new Int32Array(buffer);
  }

  /** The history process's side: waits for a build's transaction to end (asking it to end early). */
  enterMain(): void {
    if (this.#depth++ > 0) return;
    const deadline = Date.now() + MAIN_WAIT_MS;
    while (Atomics.compareExchange(this.#cells, HOLDER, FREE, MAIN) !== FREE) {
      Atomics.store(this.#cells, WANTED, 1);
      count('search.gateWaits');
      const left = deadline - Date.now();
      if (left <= 0) {
        // A build thread that died holding it: SQLite's own lock decides from here.
        Atomics.store(this.#cells, HOLDER, MAIN);
        break;
      }
      Atomics.wait(this.#cells, HOLDER, BUILD, Math.min(left, 100));
    }
    Atomics.store(this.#cells, WANTED, 0);
  }

  leaveMain(): void {
    if (--this.#depth > 0) return;
    Atomics.store(this.#cells, HOLDER, FREE);
    Atomics.notify(this.#cells, HOLDER);
  }

  /** The build's side: waits while the history process writes. */
  enterBuild(): void {
    while (Atomics.compareExchange(this.#cells, HOLDER, FREE, BUILD) !== FREE) Atomics.wait(this.#cells, HOLDER, MAIN, 100);
  }

  /** Whether the history process is waiting: the build commits what it has and leaves. */
  wanted(): boolean {
    return Atomics.load(this.#cells, WANTED) !== 0;
  }

  leaveBuild(): void {
    Atomics.compareExchange(this.#cells, HOLDER, BUILD, FREE);
    Atomics.notify(this.#cells, HOLDER);
  }
}
