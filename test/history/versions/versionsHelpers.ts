import { onTestFinished } from 'vitest';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import type { ProjectStore } from '../../../electron/history/project/projectStore.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree, type TreeSpec } from '../../helpers/writeTree.js';
import { makeRepo } from '../git/gitFixture.js';

// A project with a baseline, for the tests of what comes after it.

export interface Project {
  engine: HistoryEngine;
  root: string;
  projectId: string;
  store: ProjectStore;
}

export async function projectWithBaseline(spec: TreeSpec): Promise<Project> {
  const root = tempDir();
  writeTree(root, spec);
  return openWithBaseline(root);
}

/** The same, for a folder that is a git repository with `files` committed. */
export function repoWithBaseline(files: Record<string, string>): Promise<Project> {
  return openWithBaseline(makeRepo(files));
}

/** A folder as it is (a repository made by the test), opened with its baseline. */
export async function openWithBaseline(root: string): Promise<Project> {
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  onTestFinished(async () => {
    await engine.unwatchAll();
    engine.close();
  });
  const { projectId } = await engine.open(root);
  const store = engine.store(projectId);
  notRacy(store);
  return { engine, root, projectId, store };
}

/**
 * Makes the previous scan lie far in the future of every timestamp on disk, so no file counts as
 * racily clean and a rescan hashes exactly the files whose stat changed. Tests that are about the
 * racy rule set the scan time themselves.
 */
export function notRacy(store: ProjectStore): void {
  store.index.setMeta('lastScanAt', String(8.64e15));
}

/** Versions of one snapshot as path -> hash (null: deleted). */
export function versionsOf(store: ProjectStore, snapshotId: number | null | undefined): Record<string, string | null> {
  if (snapshotId === undefined || snapshotId === null) return {};
  return Object.fromEntries(store.index.versions.snapshotChanges(snapshotId).map((c) => [c.path, c.hash]));
}

/** The paths a snapshot changed, sorted (none for no snapshot). */
export function changedPaths(store: ProjectStore, snapshotId: number | null | undefined): string[] {
  if (snapshotId === undefined || snapshotId === null) return [];
  return store.index.versions.snapshotChanges(snapshotId).map((c) => c.path);
}

/** The bytes of a version (default: the latest with contents) as the engine hands them to a reader, as text. */
export async function readBack(engine: HistoryEngine, projectId: string, path: string, versionId?: number): Promise<string> {
  return (await engine.readVersion(projectId, path, { versionId, maxBytes: 64 * 1024 * 1024 })).data;
}
