import { parentPort } from 'node:worker_threads';
import { PruneReader } from '../db/pruneReader.js';
import { planPrune } from './planPrune.js';
import { pruneChunks } from './pruneChunks.js';
import { encodeChunk, encodeYoung, transferables, type FromWorker, type PlanRequest, type PlanSummary, type ToWorker } from './pruneProtocol.js';
import { youngVersions } from './uncommitted.js';

// The prune planner: a worker thread that reads every row a plan needs from its own read-only
// connection to history.db and makes the plan (planPrune.ts), cut into chunks (pruneChunks.ts),
// so the history process's event loop keeps only the write. The uncommitted rule's git calls stay
// with the history process (they are asynchronous there, and remember git's ids in history.db):
// the worker sends the young versions and waits for the answer. One worker per prune; each
// 'plan' request reads the history afresh (a prune that found it changed asks again).

let reader: PruneReader | undefined;
let waiting: ((ids: ReadonlySet<number>) => void) | undefined;

function send(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(message, transfer);
}

function uncommitted(): Promise<ReadonlySet<number>> {
  return new Promise((resolve) => (waiting = resolve));
}

async function plan(request: PlanRequest): Promise<void> {
  reader ??= new PruneReader(request.file);
  const { fingerprint, rows } = reader.read();
  const { young, since } = youngVersions(rows, request.policy);
  const answer = uncommitted();
  const asked = encodeYoung(young, since);
  send(asked, [asked.ids.buffer as ArrayBuffer, asked.sizes.buffer as ArrayBuffer]);
  const made = planPrune({ ...rows, uncommittedVersions: await answer, policy: request.policy, budget: request.budget });
  const chunks = pruneChunks(rows, made, request.chunkRows).map(encodeChunk);
  const summary: PlanSummary = {
    versions: made.removedVersions.length,
    snapshots: made.removedSnapshots.length,
    blobs: made.unreferencedBlobs.length,
    bytesFreed: made.bytesFreed,
    folded: made.movedVersions.length,
    newBaseline: made.newBaseline,
    keptBytes: made.keptBytes,
    budget: made.budget,
    budgetMet: made.budgetMet,
    keptBecause: made.keptBecause,
    thinning: made.thinning,
    decisions: request.decisions ? made.decisions : null,
  };
  send({ type: 'plan', fingerprint, summary, chunks }, transferables(chunks));
}

parentPort?.on('message', (message: ToWorker) => {
  if (message.type === 'uncommitted') {
    waiting?.(new Set(message.ids));
    waiting = undefined;
    return;
  }
  plan(message).catch((error: unknown) => send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }));
});
