import { existsSync, rmSync } from 'node:fs';
import { sameName } from '../../../shared/nameFold.js';
import type { ConfigStore } from '../config/configStore.js';
import type { KnownProject } from '../config/configSchema.js';
import { forgetProject } from '../config/projectEdits.js';
import { HistoryIndex } from '../db/historyIndex.js';
import { faultPoint } from '../faultPoint.js';
import { acquireFileLock } from '../fileLock.js';
import { BlobStore } from '../store/blobStore.js';
import type { ReadScratch } from '../store/blobWhole.js';
import { historyDbPath, projectStoreDir, writerLockPath } from '../store/storeLayout.js';
import { currentIdentity, sameIdentity } from '../project/folderIdentity.js';
import { SPELLINGS_JOINED } from './joinSpellingsAtOpen.js';
import type { OpenProject } from './openProject.js';

// One folder opened under two spellings by a Hindsight that took the path as typed (`~/rd`, then
// `~/RD`, where names fold) has two histories, each of the very folder (device, inode, birth time).
// When the folder's spelling on disk has one of its own (else twinProjects.ts moves the twin's
// there), the twin's is merged into it: its blobs placed in this store through its BlobStore (each
// hashed again as it is put), then its rows added in one transaction with a mark naming the twin
// (db/twinMerge.ts), and only after that commit is the twin forgotten in config.json and its store
// folder removed. Killed before the commit, the next open merges again (blobs already placed are
// kept); killed after it, the next open finds the mark and only finishes.

export interface TwinContext {
  dataDir: string;
  config: ConfigStore;
  /** Closes the twin where this process has it open, so nothing records into it meanwhile. */
  close: (projectId: string) => Promise<void>;
}

/** Merges every twin of `project` that has a history; answers what was done, for the user. */
export async function mergeTwinHistories(context: TwinContext, project: OpenProject): Promise<string[]> {
  const said: string[] = [];
  for (const twin of twinsOf(context, project)) {
    await context.close(twin.id);
    const storeDir = projectStoreDir(context.dataDir, twin.id);
    if (!existsSync(historyDbPath(storeDir))) {
      await context.config.editConfig(forgetProject(twin.id));
      rmSync(storeDir, { recursive: true, force: true });
      continue;
    }
    // Another process recording the twin finishes its write first; none starts until the store is gone.
    const lock = await acquireFileLock(writerLockPath(storeDir), { label: 'writer lock of the history', counter: 'writer', failCode: 'INTERNAL' });
    try {
      const told = mergeOne(project, storeDir, twin.id, twin.root);
      if (told.left) {
        said.push(told.left);
        continue;
      }
      faultPoint('twin-merged');
      await context.config.editConfig(forgetProject(twin.id));
      rmSync(storeDir, { recursive: true, force: true });
      if (told.merged) said.push(told.merged);
    } finally {
      lock.release();
    }
  }
  return said;
}

/** The projects config.json knows under another spelling of `project`'s very folder. */
export function twinsOf(context: Pick<TwinContext, 'config'>, project: OpenProject): KnownProject[] {
  const identity = currentIdentity(project.root);
  if (!identity) return [];
  return context.config
    .loadConfig()
    .config.projects.filter(
      (p) => p.id !== project.projectId && p.identity !== undefined && sameIdentity(p.identity, identity) && spelledOtherwise(p.root, project.root),
    );
}

/** Another spelling of the same path (a bind mount elsewhere is the same folder too, but not a twin made by a spelling). */
function spelledOtherwise(a: string, b: string): boolean {
  return sameName(a, b, { foldsCase: true, foldsNormalization: true });
}

function mergeOne(project: OpenProject, storeDir: string, twinId: string, twinRoot: string): { merged?: string; left?: string } {
  const file = historyDbPath(storeDir);
  const blobs = twinBlobs(file);
  if (blobs instanceof Error) {
    return {
      left: `The history recorded for ${twinRoot} is of ${project.root} too (one folder, spelled two ways), but could not be read, so it was left as it is: ${blobs.message}`,
    };
  }
  const missing = placeBlobs(project, storeDir, blobs);
  const outcome = project.store.index.twins.merge({
    file,
    mark: `twin.merged.${twinId}`,
    unmark: [SPELLINGS_JOINED],
    midway: () => faultPoint('twin-merging'),
  });
  if ('left' in outcome) {
    return { left: `The history recorded for ${twinRoot} is of ${project.root} too (one folder, spelled two ways), but was left as it is: ${outcome.left}.` };
  }
  for (const hash of missing) project.store.index.damage.markDamaged(hash, 'missing');
  if ('already' in outcome) return {};
  const { snapshots } = outcome.merged;
  return {
    merged: `The history recorded for ${twinRoot} is of ${project.root} too (one folder, spelled two ways): its ${snapshots} snapshot${snapshots === 1 ? '' : 's'} were merged into this history, each at its time.`,
  };
}

/** The blobs the twin's history names, or why it cannot be read (a damaged index: the twin is left for a repair). */
function twinBlobs(file: string): { hash: string; size: number }[] | Error {
  try {
    // Opened as an index of its own, so a store of an older schema is brought up to this one first.
    const twinIndex = new HistoryIndex(file, { expectHistory: true });
    try {
      return twinIndex.blobRecords.blobs();
    } finally {
      twinIndex.close();
    }
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** The twin's blobs this store lacks, put here (hashed as any write); answers those the twin could not give whole. */
function placeBlobs(project: OpenProject, storeDir: string, blobs: readonly { hash: string; size: number }[]): string[] {
  const from = BlobStore.of(storeDir);
  const scratch: ReadScratch = { buffer: Buffer.alloc(0) };
  const missing: string[] = [];
  for (const { hash, size } of blobs) {
    if (project.store.blobs.has(hash)) continue;
    let bytes: Buffer;
    try {
      bytes = Buffer.from(from.whole(hash, size, scratch));
    } catch {
      // Missing or damaged in the twin's store: its versions come along, their bytes said missing.
      missing.push(hash);
      continue;
    }
    // A failure to write here (a full disk) stops the merge before any row: the twin stays as it is.
    project.store.blobs.put(bytes);
  }
  return missing;
}
