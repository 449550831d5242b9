import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import type { SnapshotWrite } from '../../../electron/history/db/commitSnapshot.js';

// The history the pictures benchmark draws (e2e/browser/picturesBench.spec.ts): a folder of two
// files whose first copy is followed by `count` snapshots, one every ten minutes up to now, each
// changing x.txt (so the file's versions are as many as the snapshots) between two contents the
// first copy stored. Written through the index in transactions of 10,000, as a pull writes the
// snapshots it brings: recording 100,000 changes live would take hours.

export const PICTURE_FILE = 'x.txt';
const CONTENTS = ['A\n', 'B\n'];
const EVERY_MS = 10 * 60_000;
const BATCH = 10_000;

/** Writes the folder, its first copy (with the CLI at `cli`) and `count` snapshots into dataDir. */
export function writePictureHistory(cli: string, dir: string, dataDir: string, count: number, now = Date.now()): void {
  writeFileSync(join(dir, PICTURE_FILE), CONTENTS[0]!);
  writeFileSync(join(dir, 'y.txt'), CONTENTS[1]!);
  execFileSync(process.execPath, [cli, 'open', dir, '--data-dir', dataDir]);
  const engine = new HistoryEngine(dataDir);
  try {
    const index = engine.store(engine.locate(dir)).index;
    for (let from = 1; from <= count; from += BATCH) {
      const writes: SnapshotWrite[] = [];
      for (let i = from; i < Math.min(count + 1, from + BATCH); i++) {
        const bytes = CONTENTS[i % 2]!;
        const hash = createHash('sha256').update(bytes).digest('hex');
        writes.push({
          snapshot: { kind: 'change', at: now - (count - i) * EVERY_MS },
          versions: [{ path: PICTURE_FILE, hash, mode: 0o644, size: bytes.length, type: 'file' }],
          blobs: [{ hash, size: bytes.length }],
        });
      }
      index.importSnapshots(writes);
    }
  } finally {
    engine.close();
  }
  writeFileSync(join(dir, PICTURE_FILE), CONTENTS[count % 2]!);
}
