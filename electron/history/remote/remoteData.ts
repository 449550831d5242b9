import type { ObjectStore } from './objectStore.js';
import { hashOfKey, projectFolder } from '../remoteLayout/remoteKeys.js';

// The data objects (packs and large blobs) a project has on a remote now, with their sizes:
// one LIST of packs/ and one of blobs/ (paged by 1,000 keys; packs are 16 MiB each, so a few
// thousand source files cost one page). A resumed push uses it to skip what a killed one sent;
// verify uses it to check that blobs living only on the remote are still there.

export async function listData(store: ObjectStore, projectId: string, signal?: AbortSignal): Promise<Map<string, number>> {
  const folder = projectFolder(projectId);
  const [packs, blobs] = await Promise.all([store.list(`${folder}/packs/`, signal), store.list(`${folder}/blobs/`, signal)]);
  const present = new Map<string, number>();
  for (const { key, size } of packs) if (isShaped(projectId, 'pack', key)) present.set(key, size);
  for (const { key, size } of blobs) if (isShaped(projectId, 'blob', key)) present.set(key, size);
  return present;
}

function isShaped(projectId: string, kind: 'pack' | 'blob', key: string): boolean {
  try {
    hashOfKey(projectId, kind, key);
    return true;
  } catch {
    return false;
  }
}
