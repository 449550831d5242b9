import { PruneReader } from '../db/pruneReader.js';
import { BlobStore } from '../store/blobStore.js';
import { serveRequests } from '../serveRequests.js';
import { planPrune } from './planPrune.js';
import { pruneChunks } from './pruneChunks.js';
import { encodeChunk, encodeOids, transferables, type PlanMessage, type PlanRequest, type PlanSummary } from './pruneProtocol.js';
import { uncommittedVersions, youngVersions } from './uncommitted.js';

// The prune planner: a worker thread that reads every row a plan needs from its own read-only
// connection to history.db, runs the uncommitted rule (its git calls, blob reads and hashing),
// and makes the plan (planPrune.ts), cut into chunks (pruneChunks.ts), so the history process's
// event loop keeps only the write. One worker per prune; each request reads the history afresh
// (a prune that found it changed asks again).

let reader: PruneReader | undefined;

async function plan(request: PlanRequest): Promise<PlanMessage> {
  reader ??= new PruneReader(request.file);
  const source = reader;
  const { fingerprint, rows } = source.read();
  const { young } = youngVersions(rows, request.policy);
  const { uncommitted, computed } = await uncommittedVersions(
    { workTree: request.workTree ?? undefined, blobs: BlobStore.of(request.storeDir), knownOids: (hashes) => source.gitOids(hashes) },
    young,
  );
  const made = planPrune({ ...rows, uncommittedVersions: uncommitted, policy: request.policy, budget: request.budget });
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
  return { type: 'plan', fingerprint, summary, chunks, gitOids: encodeOids(computed) };
}

// At the lowest priority the host asks for (prunePlanner.ts): the planner yields the cores to everything else.
serveRequests(plan, (made) => transferables(made.chunks));
