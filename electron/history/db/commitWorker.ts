import { serveRequests } from '../serveRequests.js';
import type { PublishedBaseline } from './stagedBaseline.js';
import { SnapshotWriter, type ThreadCommit } from './snapshotWriter.js';

// The commit thread (commitThread.ts is the history process's side): writes a large baseline's
// batches and then publishes it from its own connection, answering the published snapshot.

serveRequests((request: ThreadCommit): PublishedBaseline | null => {
  const writer = new SnapshotWriter(request.file);
  try {
    if ('stage' in request) {
      writer.stage(request.stage);
      return null;
    }
    return writer.publish(request.publish, request.context);
  } finally {
    writer.close();
  }
});
