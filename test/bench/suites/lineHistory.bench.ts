import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { createContractClient, type ContractClient } from '../../../shared/contract/client.js';
import { createDispatcher } from '../../../electron/history/dispatcher/dispatcher.js';
import { servePort } from '../../../electron/history/dispatcher/servePort.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { recordPaths } from '../../../electron/history/versions/recordPaths.js';
import type { BenchCase, BenchSuite } from '../benchSuite.js';
import { seededRandom } from '../fixtures/seededRandom.js';

// Issue 44's history for a selection against the file's plain version list, on one file of
// LINES lines recorded in VERSIONS versions (default 5,000 and 1,000; the issue: the selection's
// list within 2x the plain list's time). Both are contract calls, asked as the app's viewer asks
// them (through the dispatcher over a MessagePort: the request checked, the answer cloned), in
// the same run on the same file:
//   version-list    the file's plain version list (the `versions` call, every version)
//   selection-list  what the History for selection panel asks: the `lineHistory` call for 21
//                   lines in the middle of the newest version, counted in it (every version read
//                   and diffed with the one before)
// Each version is the one before with 1 to 3 seeded edits (lines added, removed or replaced
// anywhere in the file), recorded as a change. HINDSIGHT_BENCH_LINES_LINES and
// HINDSIGHT_BENCH_LINES_VERSIONS make it smaller for a quick run.

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));
process.env.HINDSIGHT_COPY_WORKER ??= here('../copyWorker.js');
const LINES = Number(process.env.HINDSIGHT_BENCH_LINES_LINES ?? 5000);
const VERSIONS = Number(process.env.HINDSIGHT_BENCH_LINES_VERSIONS ?? 1000);
const PATH = 'big.txt';

interface History {
  client: ContractClient;
  projectId: string;
  lines: number;
  /** The newest version, which the panel counts the lines in (the version shown). */
  newestId: number;
  cleanup: () => Promise<void>;
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
  const dispatcher = createDispatcher(engine, { watch: false });
  const { port1, port2 } = new MessageChannel();
  const stopPort = servePort(dispatcher, port1);
  const client = createContractClient();
  port2.on('message', (m) => client.receive(m));
  client.connect({ send: (m) => port2.postMessage(m) });
  const cleanup = async () => {
    stopPort();
    port2.close();
    await dispatcher.close();
    engine.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  };
  const newestId = engine.versions(projectId, PATH).at(-1)!.versionId;
  return { client, projectId, lines: lines.length, newestId, cleanup };
}

/** A call's value; a failed call fails the benchmark instead of timing an error. */
function valueOf<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
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
          const { client, projectId } = await history!;
          return { versions: valueOf(await client.calls.versions({ projectId, path: PATH })).length };
        },
      },
      {
        name: 'selection-list',
        setup: async () => void (await history),
        run: async () => {
          const { client, projectId, lines, newestId } = await history!;
          const from = Math.floor(lines / 2) - 10;
          const listed = valueOf(await client.calls.lineHistory({ projectId, path: PATH, from, to: from + 20, versionId: newestId }));
          return { listed: listed.length };
        },
        teardown: async () => {
          await (await history!).cleanup();
          history = undefined;
        },
      },
    ];
  },
};

export default suite;
