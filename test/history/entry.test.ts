import { describe, expect, it, onTestFinished } from 'vitest';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';

// The history process entry (electron/history/entry.ts) as a real process. Electron's
// utilityProcess is replaced by the smallest stand-in: process.parentPort delivering
// MessagePortMain-shaped ports ({ data } events), each bridged to this test over IPC. Two clients
// share one engine, both get its events, and SIGTERM ends it cleanly.

const root = fileURLToPath(new URL('../../', import.meta.url));
const outDir = `${root}out/test-entry`;

const SHIM = `
import { EventEmitter } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
const parentPort = new EventEmitter();
process.parentPort = parentPort;
const ports = new Map();
process.on('message', (m) => {
  if (m.type === 'connect') {
    const { port1, port2 } = new MessageChannel();
    port2.on('message', (data) => process.send({ client: m.client, data }));
    ports.set(m.client, port2);
    const main = {
      postMessage: (value) => port1.postMessage(value),
      on(event, listener) { port1.on(event, event === 'message' ? (data) => listener({ data }) : listener); return main; },
      start: () => port1.start(),
      close: () => port1.close(),
    };
    parentPort.emit('message', { data: null, ports: [main] });
  } else ports.get(m.client).postMessage(m.data);
});
await import('./entry.js');
process.send({ ready: true });
`;

async function buildEntry(): Promise<string> {
  mkdirSync(outDir, { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: { entry: 'electron/history/entry.ts' },
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
  writeFileSync(`${outDir}/shim.mjs`, SHIM);
  return `${outDir}/shim.mjs`;
}

interface Client {
  call(call: string, args: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string } }>;
  events: { event: string; payload: unknown }[];
}

function clients(child: ChildProcess): (name: string) => Client {
  const made = new Map<string, Client & { pending: Map<number, (r: never) => void> }>();
  let nextId = 1;
  child.on('message', (m: { client?: string; data?: { kind: string; id: number; result: never; event: string; payload: unknown } }) => {
    const client = m.client ? made.get(m.client) : undefined;
    if (!client || !m.data) return;
    if (m.data.kind === 'result') client.pending.get(m.data.id)?.(m.data.result);
    else client.events.push({ event: m.data.event, payload: m.data.payload });
  });
  return (name) => {
    const client = {
      pending: new Map<number, (r: never) => void>(),
      events: [] as { event: string; payload: unknown }[],
      call(call: string, args: unknown) {
        const id = nextId++;
        return new Promise<never>((resolve) => {
          client.pending.set(id, resolve);
          child.send({ type: 'call', client: name, data: { kind: 'call', id, call, args } });
        });
      },
    };
    made.set(name, client);
    child.send({ type: 'connect', client: name });
    return client;
  };
}

describe('the history process entry', () => {
  it('serves every port it is handed with one engine, and exits 0 on SIGTERM', async () => {
    const shim = await buildEntry();
    const dataDir = tempDir('hindsight-data-');
    const folder = tempDir();
    writeTree(folder, { 'a.txt': 'alpha\n' });
    const child = fork(shim, ['--data-dir', dataDir], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    onTestFinished(() => void child.kill('SIGKILL'));
    await once(child, 'message');
    const connect = clients(child);
    const windowA = connect('a');
    const windowB = connect('b');

    const opened = (await windowA.call('openProject', { path: folder })) as { ok: boolean; value: { projectId: string } };
    expect(opened.ok).toBe(true);
    const tree = await windowB.call('fileTree', { projectId: opened.value.projectId });
    expect(tree).toMatchObject({ ok: true, value: [{ path: 'a.txt' }] });
    expect(await windowB.call('fileTree', { projectId: 'nope' })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    // Events reach every window, not only the one that asked.
    expect(windowB.events.some((e) => e.event === 'snapshot')).toBe(true);
    expect(windowA.events.some((e) => e.event === 'progress')).toBe(true);

    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  });
});
