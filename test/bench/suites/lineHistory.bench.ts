import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { recordPaths } from '../../../electron/history/versions/recordPaths.js';
import type { BenchCase, BenchSuite } from '../benchSuite.js';
import { seededRandom } from '../fixtures/seededRandom.js';

// Issue 44's history for a selection against the file's plain version list, on one file of
// LINES lines recorded in VERSIONS versions (default 5,000 and 1,000; the issue: the selection's
// list within 2x the plain list's time):
//   version-list    the file's versions, as the viewer's list asks for them (engine.versions)
//   selection-list  the versions that changed 21 lines in the middle of the newest version
//                   (engine.lineHistory: every version read and diffed with the one before)
// Each version is the one before with 1 to 3 seeded edits (lines added, removed or replaced
// anywhere in the file), recorded as a change. HINDSIGHT_BENCH_LINES_LINES and
// HINDSIGHT_BENCH_LINES_VERSIONS make it smaller for a quick run.

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));
process.env.HINDSIGHT_COPY_WORKER ??= here('../copyWorker.js');
const LINES = Number(process.env.HINDSIGHT_BENCH_LINES_LINES ?? 5000);
const VERSIONS = Number(process.env.HINDSIGHT_BENCH_LINES_VERSIONS ?? 1000);
const PATH = 'big.txt';

interface History {
  engine: HistoryEngine;
  projectId: string;
  lines: number;
  cleanup: () => void;
}

let history: Promise<History> | undefined;

async function makeHistory(): Promise<History> {
  const root = mkdtempSync(join(tmpdir(), 'hindsight-bench-lines-'));
  const data = mkdtempSync(join(tmpdir(), 'hindsight-bench-lines-data-'));
  const random = seededRandom(44);
  const pick = (n: number) => Math.floor(random() * n);
  let next = 0;
  const fresh = (count: number) => Array.from({ length: count }, () => `    const value${next} = compute(${next++}, options); // a line of code\n`);
  let lines = fresh(LINES);
  writeFileSync(join(root, PATH), lines.join(''));
  const engine = new HistoryEngine(data);
  const { projectId } = await engine.open(root);
  const store = engine.store(projectId);
  for (let v = 1; v < VERSIONS; v++) {
    for (let edits = 1 + pick(3); edits > 0; edits--) {
      const at = pick(lines.length);
      const kind = lines.length < LINES * 0.9 ? 0 : lines.length > LINES * 1.1 ? 1 : pick(3);
      const count = 1 + pick(3);
      lines = [...lines.slice(0, at), ...(kind === 1 ? [] : fresh(count)), ...lines.slice(kind === 0 ? at : at + count)];
    }
    writeFileSync(join(root, PATH), lines.join(''));
    await recordPaths(store, [PATH], { kind: 'change', label: null });
  }
  const cleanup = () => {
    engine.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  };
  return { engine, projectId, lines: lines.length, cleanup };
}

const suite: BenchSuite = {
  name: 'lineHistory',
  cases: (): BenchCase[] => {
    history ??= makeHistory();
    return [
      {
        name: 'version-list',
        setup: async () => void (await history),
        run: async () => {
          const { engine, projectId } = await history!;
          return { versions: engine.versions(projectId, PATH).length };
        },
      },
      {
        name: 'selection-list',
        setup: async () => void (await history),
        run: async () => {
          const { engine, projectId, lines } = await history!;
          const from = Math.floor(lines / 2) - 10;
          return { listed: (await engine.lineHistory(projectId, PATH, { from, to: from + 20 })).length };
        },
        teardown: async () => (await history!).cleanup(),
      },
    ];
  },
};

export default suite;
