import type { Progress } from '../../../shared/progress.js';
import type { ProjectStore } from '../project/projectStore.js';
import { throttleProgress } from '../progressThrottle.js';
import { count } from '../trace.js';
import { IndexThread } from './indexThread.js';
import { searchBuildTurns, type BuildTurns, type ReleaseTurn } from './buildTurns.js';

// Builds and keeps current one project's search index, in the background at the lowest priority:
// the batches (search/indexBatch.ts: reading, the text test and FTS5's tokenizer) run in a worker
// thread at the lowest priority (indexThread.ts, indexWorker.ts), one at a time, none at all while
// the project has a write queued or running (a first copy, a restore, a change group) or files are
// copying anywhere in the process, and a write that starts meanwhile has the batch commit early.
// Builds of different projects take turns (buildTurns.ts): one index thread in the process at a
// time. This thread only asks for the next batch and counts. It stops when the index covers every blob
// (the worker ends with it) and starts again when a snapshot names new ones (poke). What it
// committed survives a kill; the next build skips it. A build may be told to wait before its
// thread starts (notYet): the recorder starts none while a project's changes still come.

export interface BuilderOptions {
  /** The searchMaxFileSize setting, read at every batch. */
  maxSize: () => number;
  /** Something to wait for before the next batch (a write or a copy running), or undefined when there is nothing. */
  busy?: () => Promise<unknown> | undefined;
  /** Something to wait for before a build starts its thread (the project not quiet yet), or undefined. */
  notYet?: () => Promise<unknown> | undefined;
  onProgress?: (progress: Progress) => void;
  /** The queue builds take turns in (default: the process's one). */
  turns?: BuildTurns;
}

export class SearchBuilder {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  /** Aborts when stopped: a build waiting for its turn leaves the queue at once. */
  private readonly stopping = new AbortController();
  /** Batches committed, blobs they read and blobs they recorded since this builder started (what tests count). */
  batches = 0;
  looked = 0;
  added = 0;
  /** The last build's failure, if it failed (a background build tries again on the next poke). */
  failure: unknown;

  constructor(
    private readonly store: ProjectStore,
    private readonly options: BuilderOptions,
  ) {}

  /** Makes the build (re)start: there may be blobs it has not looked at. */
  poke(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.failure = undefined;
    this.running = this.build()
      .catch((error: unknown) => void (this.failure = error)) // the index stays as committed
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.poke();
        }
      });
  }

  /** Resolves when the build has nothing left to do (now). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops after the batch in progress; nothing is lost (every batch is committed whole). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    await this.running;
  }

  private async build(): Promise<void> {
    const { store } = this;
    const progress = throttleProgress(this.options.onProgress, 250);
    // Counted once, then kept up by what each batch added: a count per batch would read every blob row.
    let totals = this.options.onProgress ? store.index.search.searchProgress(this.options.maxSize()) : undefined;
    let cursor = '';
    // Started at the first batch: none lives while the build waits for a write or a copy to end.
    let thread: IndexThread | undefined;
    let turn: ReleaseTurn | null = null;
    try {
      for (;;) {
        await nextTurn();
        const wait = this.options.busy?.();
        if (wait) {
          await wait;
          continue;
        }
        if (this.stopped || !store.index.open) return;
        // An index that covers every blob (every start of a recorder pokes every project) costs
        // one query here, not a thread started to load its modules and find nothing.
        if (thread === undefined && store.index.search.unindexedBlobs(cursor, this.options.maxSize(), 1).length === 0) {
          count('search.buildsWithNothingToDo');
          break;
        }
        if (thread === undefined) {
          const later = this.options.notYet?.();
          if (later) {
            count('search.buildsDeferred');
            await Promise.race([later, stopped(this.stopping.signal)]);
            continue;
          }
          // The thread starts on this build's turn, and the turn lasts until the build ends.
          turn = await (this.options.turns ?? searchBuildTurns).take(this.stopping.signal);
          if (turn === null || this.stopped || !store.index.open) return;
          thread = new IndexThread(store);
        }
        const batch = await thread.batch(cursor, this.options.maxSize());
        if (batch.looked === 0) break;
        this.batches++;
        this.looked += batch.looked;
        this.added += batch.added;
        cursor = batch.cursor;
        if (totals) {
          totals = { ...totals, indexedBlobs: totals.indexedBlobs + batch.added };
          progress.update(progressOf(store.projectId, totals, 'index'));
        }
      }
    } finally {
      await thread?.close();
      turn?.();
    }
    if (this.options.onProgress && this.batches > 0)
      progress.finish(progressOf(store.projectId, store.index.search.searchProgress(this.options.maxSize()), 'done'));
  }
}

/** The build's progress as the CLI's bar and the viewer's cards show it: blobs looked at, of those within the limit. */
function progressOf(projectId: string, totals: { indexedBlobs: number; totalBlobs: number }, phase: 'index' | 'done'): Progress {
  return { operation: 'search-index', projectId, phase, filesDone: totals.indexedBlobs, filesTotal: totals.totalBlobs, bytesDone: 0, bytesTotal: 0 };
}

/** Resolves once the builder is stopped: a wait for quiet ends with it. */
function stopped(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
}

/** After everything already waiting on the event loop (I/O included): the lowest priority there is. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
