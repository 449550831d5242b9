import type { StoreStats } from '../../../shared/contract.js';
import type { ProjectStore } from '../project/projectStore.js';
import { storeDensity } from './storeDensity.js';
import { storeDiskUsage } from '../store/storeDiskUsage.js';

// What a project's history costs on disk and what content addressing saves: every version's size
// summed as if stored apart, against the distinct blobs actually stored; and what compression
// saves beyond that (storeDensity.ts); and what the whole store takes on disk, blocks counted as
// du counts them (store/storeDiskUsage.ts), not the blobs' recorded sizes alone.

export function storeStats(store: ProjectStore, largest: number, searchMaxSize: number, budget: number | null): StoreStats {
  const counts = store.index.blobRecords.historyTotals();
  const blobs = store.index.blobRecords.blobTotals();
  const search = store.index.search.searchIndexTotals(searchMaxSize);
  const largestFiles = store.index.files
    .filesAt()
    .filter((f) => f.type === 'file')
    .sort((a, b) => b.size - a.size || (a.path < b.path ? -1 : 1))
    .slice(0, largest)
    .map((f) => ({ path: f.path, hash: f.hash, size: f.size }));
  return {
    projectId: store.projectId,
    snapshots: counts.snapshots,
    versions: counts.versions,
    blobs: blobs.blobs,
    blobBytes: blobs.bytes,
    logicalBytes: counts.logicalBytes,
    dedupeSavedBytes: Math.max(0, counts.logicalBytes - blobs.bytes),
    largestFiles,
    searchIndex: { ...search, done: search.indexedBlobs >= search.totalBlobs },
    density: storeDensity(store, budget),
    disk: { ...storeDiskUsage(store.storeDir), searchIndexBytes: search.indexBytes },
  };
}
