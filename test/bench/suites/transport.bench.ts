import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { WebSocket } from 'ws';
import { createContractClient, type ContractClient } from '../../../shared/contract/client.js';
import { createDispatcher, type Dispatcher } from '../../../electron/history/dispatcher/dispatcher.js';
import { servePort } from '../../../electron/history/dispatcher/servePort.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { sharedCopyPool } from '../../../electron/history/store/copyPool.js';
import { startHost, type RunningHost } from '../../../electron/host/hostServer.js';
import type { BenchCase, BenchSuite } from '../benchSuite.js';

// What a viewer call costs on each transport, the Electron app's MessagePort (structured clone)
// and the browser host's WebSocket (JSON), for the same dispatcher and project (5,000 files):
//   <transport>-log          100 calls of `log` (small answers: the fixed cost of a call)
//   <transport>-fileTree     one `fileTree` of 5,000 entries
//   <transport>-read2MiB     one `readVersion` of a 2 MiB text file (the default cap)
// Socket rows also report the bytes of the answer on the wire.

const FILES = 5000;

// Built into out/bench/suites/: the copy worker is one folder up.
process.env.HINDSIGHT_COPY_WORKER ??= fileURLToPath(new URL('../copyWorker.js', import.meta.url));

interface Fixture {
  dirs: string[];
  engine: HistoryEngine;
  dispatcher: Dispatcher;
  projectId: string;
  port: ContractClient;
  socket: ContractClient;
  socketBytes: () => number;
  host: RunningHost;
  close: () => Promise<void>;
}

async function fixture(): Promise<Fixture> {
  const folder = mkdtempSync(join(tmpdir(), 'hindsight-transport-project-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'hindsight-transport-data-'));
  for (let i = 0; i < FILES; i++) {
    const dir = join(folder, `d${i % 50}`);
    if (i < 50) mkdirSync(dir);
    writeFileSync(join(dir, `file-${i}.txt`), `line ${i}\n`);
  }
  writeFileSync(join(folder, 'big.txt'), 'hindsight '.repeat((2 * 1024 * 1024) / 10));
  const engine = new HistoryEngine(dataDir);
  const dispatcher = createDispatcher(engine, { watch: false });

  const { port1, port2 } = new MessageChannel();
  const stopPort = servePort(dispatcher, port1);
  const port = createContractClient();
  port2.on('message', (m) => port.receive(m));
  port.connect({ send: (m) => port2.postMessage(m) });

  const host = await startHost({ dispatcher, rendererDir: dataDir, meta: { platform: process.platform, version: 'bench' } });
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const socket = createContractClient();
  let bytes = 0;
  ws.on('message', (data) => {
    const text = String(data);
    bytes += Buffer.byteLength(text);
    socket.receive(JSON.parse(text));
  });
  socket.connect({ send: (m) => ws.send(JSON.stringify(m)) });

  const opened = await port.calls.openProject({ path: folder });
  if (!opened.ok) throw new Error(opened.error.message);
  return {
    dirs: [folder, dataDir],
    engine,
    dispatcher,
    projectId: opened.value.projectId,
    port,
    socket,
    socketBytes: () => bytes,
    host,
    close: async () => {
      ws.close();
      stopPort();
      port2.close();
      await host.close();
      await dispatcher.close();
      engine.close();
      await sharedCopyPool().close();
    },
  };
}

const suite: BenchSuite = {
  name: 'transport',
  async cases() {
    let f: Fixture | undefined;
    const get = () => f!;
    const setup = async () => void (f ??= await fixture());
    const cases: BenchCase[] = [];
    for (const transport of ['port', 'socket'] as const) {
      const client = () => (transport === 'port' ? get().port : get().socket);
      const measured = async (work: () => Promise<void>): Promise<Record<string, number>> => {
        const before = get().socketBytes();
        await work();
        return transport === 'socket' ? { wireBytes: get().socketBytes() - before } : {};
      };
      cases.push(
        {
          name: `${transport}-log`,
          setup,
          iterations: 5,
          run: () =>
            measured(async () => {
              for (let i = 0; i < 100; i++) await client().calls.log({ projectId: get().projectId });
            }),
        },
        {
          name: `${transport}-fileTree`,
          setup,
          iterations: 5,
          run: () =>
            measured(async () => {
              const tree = await client().calls.fileTree({ projectId: get().projectId });
              if (!tree.ok || !Array.isArray(tree.value) || tree.value.length !== FILES + 1) throw new Error('unexpected tree');
            }),
        },
        {
          name: `${transport}-read2MiB`,
          setup,
          iterations: 5,
          run: () =>
            measured(async () => {
              const read = await client().calls.readVersion({ projectId: get().projectId, path: 'big.txt' });
              if (!read.ok || read.value.truncated) throw new Error('unexpected read');
            }),
          teardown:
            transport === 'socket'
              ? async () => {
                  await f?.close();
                  for (const dir of f?.dirs ?? []) rmSync(dir, { recursive: true, force: true });
                  f = undefined;
                }
              : undefined,
        },
      );
    }
    return cases;
  },
};

export default suite;
