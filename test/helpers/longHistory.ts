import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import type { SnapshotWrite } from '../../electron/history/db/commitSnapshot.js';
import { sha256 } from './writeTree.js';

// A history of many snapshots, made in seconds: recording each change through the CLI would take
// hours, so the snapshots are written through the index in one transaction, as a pull writes the
// snapshots it brings. The folder holds `x.txt` and `y.txt`, first copied as "A\n" and "B\n";
// each added snapshot, one a minute up to now, swaps x.txt between those two contents (both
// blobs stored by the first copy), and the folder ends holding the newest.

export const LONG_HISTORY_FILE = 'x.txt';
const CONTENTS = ['A\n', 'B\n'];

/** Writes the folder, records its first copy in dataDir and adds `count` snapshots; answers the projectId. */
export async function recordLongHistory(root: string, dataDir: string, count: number): Promise<string> {
  writeFileSync(join(root, LONG_HISTORY_FILE), CONTENTS[0]!);
  writeFileSync(join(root, 'y.txt'), CONTENTS[1]!);
  const engine = new HistoryEngine(dataDir);
  try {
    const { projectId } = await engine.open(root);
    addSnapshots(engine, projectId, count);
    writeFileSync(join(root, LONG_HISTORY_FILE), contentAfter(count));
    return projectId;
  } finally {
    engine.close();
  }
}

/** Adds `count` more snapshots of x.txt to an open project's history, in one transaction. */
export function addSnapshots(engine: HistoryEngine, projectId: string, count: number, now = Date.now()): void {
  const writes: SnapshotWrite[] = [];
  for (let i = 1; i <= count; i++) {
    const bytes = contentAfter(i);
    const hash = sha256(bytes);
    writes.push({
      snapshot: { kind: 'change', at: now - (count - i) * 60_000, branch: null, head: null },
      versions: [{ path: LONG_HISTORY_FILE, hash, mode: 0o644, size: bytes.length, type: 'file' }],
      blobs: [{ hash, size: bytes.length }],
    });
  }
  engine.store(projectId).index.importSnapshots(writes);
}

/** What x.txt holds after the i-th added snapshot. */
export function contentAfter(i: number): string {
  return CONTENTS[i % 2]!;
}
