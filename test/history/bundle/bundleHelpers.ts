import { onTestFinished } from 'vitest';
import { chmodSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, type TreeSpec } from '../../helpers/writeTree.js';
import { notRacy, projectWithBaseline, type Project } from '../versions/versionsHelpers.js';

// A project with a history of four snapshots (edits, a deleted folder, new folders with their own
// modes, links, a checkpoint), and what the bundle tests compare with.

const SPEC: TreeSpec = {
  'src/a.txt': 'alpha\n',
  'src/big.bin': seededBytes(3, 2_500_000),
  'src/deep/b.txt': 'beta',
  'bin/run.sh': { data: '#!/bin/sh\n', mode: 0o755 },
  'secret/key': { data: 'k', mode: 0o600 },
  'docs/link': { link: '../src/a.txt' },
  'same-1.txt': 'same bytes',
  'same-2.txt': { data: 'same bytes', mode: 0o640 },
};

export async function historyWithChanges(): Promise<Project> {
  const project = await projectWithBaseline(SPEC);
  const { engine, root, store, projectId } = project;
  chmodSync(join(root, 'secret'), 0o700);
  writeFileSync(join(root, 'src/a.txt'), 'alpha, edited\n');
  chmodSync(join(root, 'bin/run.sh'), 0o700);
  notRacy(store);
  await engine.rescan(projectId);
  rmSync(join(root, 'docs'), { recursive: true });
  mkdirSync(join(root, 'new/inner'), { recursive: true });
  writeFileSync(join(root, 'new/inner/n.txt'), 'new');
  chmodSync(join(root, 'new'), 0o750);
  symlinkSync('../src', join(root, 'new/src-link'));
  notRacy(store);
  await engine.rescan(projectId);
  await engine.checkpoint(projectId, 'before the move');
  return project;
}

export function folderModes(root: string, rel = ''): Record<string, number> {
  const out: Record<string, number> = {};
  for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    out[path] = statSync(join(root, path)).mode & 0o7777;
    Object.assign(out, folderModes(root, path));
  }
  return out;
}

export function otherEngine(): HistoryEngine {
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  onTestFinished(() => engine.close());
  return engine;
}

