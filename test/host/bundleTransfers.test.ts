import { describe, expect, it, onTestFinished } from 'vitest';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { createDispatcher, type Dispatcher } from '../../electron/history/dispatcher/dispatcher.js';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import { TRANSFER_DIR } from '../../electron/host/bundleTransfers.js';
import { startHost, type RunningHost } from '../../electron/host/hostServer.js';
import type { Progress } from '../../shared/progress.js';
import { editBundle } from '../helpers/bundleRecords.js';
import { tempDir } from '../helpers/tempDirs.js';
import { historyWithChanges } from '../history/bundle/bundleHelpers.js';
import { until } from '../helpers/until.js';

// The browser host's bundle endpoints with a real HTTP client: an export handed out once as a
// download; an upload refused when it has no token, comes from another origin, is too large, is
// not a bundle, is cut off or names no absolute folder, or is cancelled, each time with nothing
// left in the data folder and no project registered; a good one imported, its temp private while
// it is written and gone after.

interface Receiver {
  engine: HistoryEngine;
  dispatcher: Dispatcher;
  host: RunningHost;
  dataDir: string;
}

async function receiver(options: { maxUploadBytes?: number } = {}): Promise<Receiver> {
  const dataDir = tempDir('hindsight-host-data-');
  const engine = new HistoryEngine(dataDir);
  const dispatcher = createDispatcher(engine, { watch: false });
  const host = await startHost({ dispatcher, rendererDir: tempDir('hindsight-renderer-'), meta: { platform: 'linux', version: '9.9.9' }, ...options });
  onTestFinished(async () => {
    await host.close();
    await dispatcher.close();
    engine.close();
  });
  return { engine, dispatcher, host, dataDir };
}

interface Reply {
  status: number;
  body: Buffer;
  json: { ok: boolean; value?: Record<string, unknown>; error?: { code: string; message: string } };
}

/** One request; a body is written in `pieces` (after `between` runs between them). The answer counts even when the host closed before taking the whole body. */
function send(
  port: number,
  method: string,
  path: string,
  options: { headers?: Record<string, string | number>; pieces?: Buffer[]; between?: () => Promise<void> } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request({ host: '127.0.0.1', port, method, path, headers: options.headers }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        let json: Reply['json'] = { ok: false };
        try {
          json = JSON.parse(body.toString('utf8')) as Reply['json'];
        } catch {
          // not JSON (a download, a plain refusal)
        }
        resolve({ status: res.statusCode ?? 0, body, json });
      });
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    void (async () => {
      for (const [i, piece] of (options.pieces ?? []).entries()) {
        if (i > 0) await options.between?.();
        if (!req.destroyed) req.write(piece);
      }
      if (!req.destroyed) req.end();
    })();
  });
}

function upload(r: Receiver, body: Buffer, query = `operationId=up-1`, headers: Record<string, string | number> = {}): Promise<Reply> {
  return send(r.host.port, 'POST', `/transfer/import?${query}&token=${r.host.token}`, {
    headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': body.length, ...headers },
    pieces: [body],
  });
}

/** What an upload may leave: nothing in the transfer folder, no store of any project. */
function leftovers(dataDir: string): string[] {
  const transfers = join(dataDir, TRANSFER_DIR);
  const temps = existsSync(transfers) ? readdirSync(transfers).map((name) => `${TRANSFER_DIR}/${name}`) : [];
  const stores = existsSync(join(dataDir, 'projects')) ? readdirSync(join(dataDir, 'projects')).map((name) => `projects/${name}`) : [];
  return [...temps, ...stores];
}

/** Waits until the host has removed every temp (it cleans up after the connection is gone). */
async function untilGone(transfers: string): Promise<void> {
  await until(() => readdirSync(transfers).length === 0, { what: `${transfers} to be empty`, everyMs: 5 });
}

/** The pid of a process that has exited (no host can be running under it). */
async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid!;
}

/** Waits for the upload's temp to be made (the host has taken the request and opened its file). */
async function tempAppears(transfers: string): Promise<string> {
  await until(() => existsSync(transfers) && readdirSync(transfers).length > 0, { everyMs: 5 });
  return join(transfers, readdirSync(transfers)[0]!);
}

async function bundleOf(): Promise<{ bytes: Buffer; snapshots: number }> {
  const { engine, projectId } = await historyWithChanges();
  const file = join(tempDir(), 'history.hsb');
  const exported = await engine.exportHistory(projectId, { file });
  return { bytes: readFileSync(file), snapshots: exported.snapshots };
}

describe('bundle transfers of the browser host', () => {
  it('refuses an upload without the token, with a wrong one, or from another origin, keeping nothing', async () => {
    const r = await receiver();
    const { bytes } = await bundleOf();
    const as = tempDir();
    const path = `/transfer/import?operationId=up-1&as=${encodeURIComponent(as)}`;
    const headers = { 'Content-Type': 'application/octet-stream', 'Content-Length': bytes.length };
    expect((await send(r.host.port, 'POST', path, { headers, pieces: [bytes] })).status).toBe(401);
    expect((await send(r.host.port, 'POST', `${path}&token=wrong`, { headers, pieces: [bytes] })).status).toBe(403);
    const foreign = await send(r.host.port, 'POST', `${path}&token=${r.host.token}`, {
      headers: { ...headers, Origin: 'http://evil.example' },
      pieces: [bytes],
    });
    expect(foreign.status).toBe(403);
    expect(leftovers(r.dataDir)).toEqual([]);
    await expect(r.engine.listProjects()).resolves.toEqual([]);
  });

  it('refuses an upload larger than the limit before reading it, and one that says no length', async () => {
    const r = await receiver({ maxUploadBytes: 1024 });
    const { bytes } = await bundleOf();
    const big = await upload(r, bytes, `operationId=up-1&as=${encodeURIComponent(tempDir())}`);
    expect(big.status).toBe(413);
    expect(big.json.error?.message).toContain('more than this host takes (1024 bytes)');
    const chunked = await send(r.host.port, 'POST', `/transfer/import?operationId=up-2&token=${r.host.token}`, {
      headers: { 'Content-Type': 'application/octet-stream', 'Transfer-Encoding': 'chunked' },
      pieces: [bytes.subarray(0, 100)],
    });
    expect(chunked.status).toBe(411);
    expect(leftovers(r.dataDir)).toEqual([]);
  });

  it('refuses what is not a bundle at its first bytes, a bundle cut off, and one naming no absolute folder, registering and keeping nothing', async () => {
    const r = await receiver();
    const { bytes } = await bundleOf();
    const folder = tempDir();
    const as = encodeURIComponent(folder);
    const notBundle = await upload(r, Buffer.from('PK\u0003\u0004 a zip file, not a history'), `operationId=up-1&as=${as}`);
    expect(notBundle.status).toBe(400);
    expect(notBundle.json.error).toMatchObject({ code: 'BUNDLE_CORRUPT', message: expect.stringContaining('not a Hindsight history bundle') });
    expect(leftovers(r.dataDir)).toEqual([]);

    const cut = await upload(r, bytes.subarray(0, bytes.length - 1000), `operationId=up-2&as=${as}`);
    expect(cut.status).toBe(400);
    expect(cut.json.error?.code).toBe('BUNDLE_CORRUPT');
    // Refused after its rows were read: the folder registered for it is forgotten, its store removed.
    expect(leftovers(r.dataDir)).toEqual([]);
    await expect(r.engine.listProjects()).resolves.toEqual([]);

    // Without `as`, a bundle whose folder is empty or relative is refused before anything is
    // registered: never the host's working folder (or /).
    for (const root of ['', '.', 'home/me']) {
      const rootless = await upload(
        r,
        editBundle(bytes, (records) => ((records[0]!.value as { root: string }).root = root)),
        'operationId=up-4',
      );
      expect(rootless.status).toBe(400);
      expect(rootless.json.error?.message).toContain(`the folder it was recorded at (${JSON.stringify(root)}) is not an absolute path`);
      expect(leftovers(r.dataDir)).toEqual([]);
      await expect(r.engine.listProjects()).resolves.toEqual([]);
    }

    const badQuery = await upload(r, bytes, `operationId=up-3&as=${as}&to=/etc/passwd`);
    expect(badQuery.status).toBe(400);
    expect(badQuery.json.error?.code).toBe('BAD_REQUEST');
  });

  it('imports a good upload through a private temp that is gone after, and a cancel stops one midway', async () => {
    const r = await receiver();
    const { bytes, snapshots } = await bundleOf();
    const as = tempDir();
    const progress: Progress[] = [];
    r.engine.events.on((e) => e.event === 'progress' && e.payload.operationId === 'up-1' && progress.push(e.payload));
    const transfers = join(r.dataDir, TRANSFER_DIR);
    let tempMode = -1;
    const done = await send(r.host.port, 'POST', `/transfer/import?operationId=up-1&as=${encodeURIComponent(as)}&token=${r.host.token}`, {
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': bytes.length },
      pieces: [bytes.subarray(0, 4096), bytes.subarray(4096)],
      // Between the two pieces the temp exists: look at it.
      between: async () => {
        tempMode = statSync(await tempAppears(transfers)).mode & 0o777;
      },
    });
    expect(done.status).toBe(200);
    expect(done.json.value).toMatchObject({ root: as, snapshots, added: snapshots });
    expect(tempMode).toBe(0o600);
    expect(readdirSync(transfers)).toEqual([]);
    expect(progress.map((p) => p.phase)).toContain('upload');
    expect(progress.at(-1)).toMatchObject({ operation: 'import', phase: 'done' });
    expect(r.engine.log(String(done.json.value?.projectId))).toHaveLength(snapshots);

    // Cancelled between two pieces: CANCELLED, the temp removed, nothing imported.
    const other = await receiver();
    const cancelled = await send(other.host.port, 'POST', `/transfer/import?operationId=up-2&as=${encodeURIComponent(tempDir())}&token=${other.host.token}`, {
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': bytes.length },
      pieces: [bytes.subarray(0, 4096), bytes.subarray(4096)],
      // Once the upload is under way (its temp exists), the cancel call a page would send.
      between: async () => {
        await tempAppears(join(other.dataDir, TRANSFER_DIR));
        const answer = await other.dispatcher.handle({ kind: 'call', id: 1, call: 'cancel', args: { operationId: 'up-2' } });
        expect(answer.result).toEqual({ ok: true, value: { cancelled: true } });
      },
    });
    expect(cancelled.json.error?.code).toBe('CANCELLED');
    expect(leftovers(other.dataDir)).toEqual([]);
  });

  it('leaves no upload temp when the page goes away midway or the import is refused', async () => {
    const r = await receiver();
    const { bytes } = await bundleOf();
    const transfers = join(r.dataDir, TRANSFER_DIR);
    // The connection dropped after the first piece, as a closed tab does.
    const gone = new Promise<void>((resolve) => {
      const req = request({
        host: '127.0.0.1',
        port: r.host.port,
        method: 'POST',
        path: `/transfer/import?operationId=up-1&as=${encodeURIComponent(tempDir())}&token=${r.host.token}`,
        headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': bytes.length },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write(bytes.subarray(0, 4096));
      void tempAppears(transfers).then(() => req.destroy());
    });
    await gone;
    await untilGone(transfers);
    expect(readdirSync(transfers)).toEqual([]);

    // Gone as soon as it asked, before the host looked at the body: several times, since where the host is when the close arrives varies.
    for (let i = 0; i < 20; i++) {
      await new Promise<void>((resolve) => {
        const req = request({
          host: '127.0.0.1',
          port: r.host.port,
          method: 'POST',
          path: `/transfer/import?operationId=up-gone-${i}&token=${r.host.token}`,
          headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': bytes.length },
        });
        req.on('error', () => resolve());
        req.on('close', () => resolve());
        req.flushHeaders();
        req.write(bytes.subarray(0, 64), () => req.destroy());
      });
    }
    await untilGone(transfers);
    expect(readdirSync(transfers)).toEqual([]);

    // The whole bundle arrived, and the import refused it: the folder it names is a file.
    const file = join(tempDir(), 'not-a-folder');
    writeFileSync(file, 'a file');
    const refused = await upload(r, bytes, `operationId=up-2&as=${encodeURIComponent(file)}`);
    expect(refused.json.ok).toBe(false);
    expect(readdirSync(transfers)).toEqual([]);
  });

  it('removes upload temps a killed host left when it starts', async () => {
    const dataDir = tempDir('hindsight-host-data-');
    const transfers = join(dataDir, TRANSFER_DIR);
    mkdirSync(transfers);
    const deadPid = await exitedPid();
    // A temp of a host whose process is gone, of any age; one of a host still running (this process) stays.
    writeFileSync(join(transfers, `upload-${deadPid}-${randomUUID()}.hsb`), 'hindsight-bundle 3\n');
    writeFileSync(join(transfers, `export-${deadPid}-${randomUUID()}.hsb`), 'hindsight-bundle 3\n');
    const alive = `upload-${process.pid}-${randomUUID()}.hsb`;
    writeFileSync(join(transfers, alive), 'hindsight-bundle 3\n');
    const engine = new HistoryEngine(dataDir);
    const dispatcher = createDispatcher(engine, { watch: false });
    const host = await startHost({ dispatcher, rendererDir: tempDir('hindsight-renderer-'), meta: { platform: 'linux', version: '9.9.9' } });
    onTestFinished(async () => {
      await host.close();
      await dispatcher.close();
      engine.close();
    });
    expect(readdirSync(transfers)).toEqual([alive]);
  });

  it('hands an export out once as a download and removes its temp', async () => {
    const { engine, projectId } = await historyWithChanges();
    const dispatcher = createDispatcher(engine, { watch: false });
    const host = await startHost({ dispatcher, rendererDir: tempDir('hindsight-renderer-'), meta: { platform: 'linux', version: '9.9.9' } });
    onTestFinished(async () => {
      await host.close();
      await dispatcher.close();
    });
    const prepared = await send(host.port, 'POST', `/transfer/export?projectId=${projectId}&operationId=ex-1&name=my%20project&token=${host.token}`);
    expect(prepared.status).toBe(200);
    const download = String((prepared.json.value as { download: string }).download);
    const cookie = `hindsight-token-${host.port}=${host.token}`;
    const got = await new Promise<{ status: number; disposition: string; body: Buffer }>((resolve, reject) => {
      request({ host: '127.0.0.1', port: host.port, path: download, headers: { cookie } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, disposition: String(res.headers['content-disposition']), body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
    expect(got.status).toBe(200);
    expect(got.disposition).toBe('attachment; filename="my-project-history.hsb"');
    expect(got.body.subarray(0, 19).toString()).toBe('hindsight-bundle 4\n');
    expect(got.body.length).toBe((prepared.json.value as { result: { size: number } }).result.size);
    expect((await send(host.port, 'GET', `${download}?token=${host.token}`)).status).toBe(404);
    expect(readdirSync(join(engine.dataDir, TRANSFER_DIR))).toEqual([]);
    expect((await send(host.port, 'POST', `/transfer/export?projectId=${'0'.repeat(32)}&operationId=ex-2&token=${host.token}`)).json.error?.code).toBeDefined();
    expect(readdirSync(join(engine.dataDir, TRANSFER_DIR))).toEqual([]);
  });
});
