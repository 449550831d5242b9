import type { SnapshotInfo } from '../../../shared/history.js';
import { serveRequests } from '../serveRequests.js';
import { SnapshotWriter, type ThreadCommit } from './snapshotWriter.js';

// The commit thread (commitThread.ts is the history process's side): commits a large snapshot
// from its own connection and answers with the snapshot as commitSnapshot built it.

serveRequests((request: ThreadCommit): SnapshotInfo => {
  const writer = new SnapshotWriter(request.file);
  try {
    return writer.commit(request.write, request.context);
  } finally {
    writer.close();
  }
});
