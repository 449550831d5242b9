import { describe, expect, it, onTestFinished } from 'vitest';
import { request } from 'node:http';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { join } from 'node:path';
import { once } from 'node:events';
import { WebSocket } from 'ws';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import { createDispatcher } from '../../electron/history/dispatcher/dispatcher.js';
import { startHost, type RunningHost } from '../../electron/host/hostServer.js';
import { tempDir } from '../helpers/tempDirs.js';

// The browser host with real HTTP and WebSocket clients on 127.0.0.1: nothing without the token,
// nothing with a wrong one, nothing for another host name or origin, nothing outside the viewer's
// folder, and no bind beyond loopback unless asked.

async function host(options: { host?: string; allowRemote?: boolean } = {}): Promise<RunningHost & { rendererDir: string }> {
  const rendererDir = tempDir('hindsight-renderer-');
  // A file beside the viewer's folder that a traversal would reach.
  writeFileSync(`${rendererDir}-secret.txt`, 'not for the browser');
  onTestFinished(() => rmSync(`${rendererDir}-secret.txt`, { force: true }));
  writeFileSync(
    join(rendererDir, 'index.html'),
    '<!doctype html><html><head><meta charset="UTF-8"><script type="module" src="./assets/app.js"></script></head><body></body></html>',
  );
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log("viewer")');
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  const dispatcher = createDispatcher(engine, { watch: false });
  const running = await startHost({ dispatcher, rendererDir, meta: { platform: 'linux', version: '9.9.9' }, ...options });
  onTestFinished(async () => {
    await running.close();
    await dispatcher.close();
    engine.close();
  });
  return { ...running, rendererDir };
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The status a WebSocket upgrade is answered with (101 when it opens). */
async function upgrade(url: string, headers: Record<string, string> = {}): Promise<{ status: number; ws?: WebSocket }> {
  const ws = new WebSocket(url, { headers });
  return new Promise((resolve) => {
    ws.once('open', () => resolve({ status: 101, ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.once('error', () => resolve({ status: -1 }));
  });
}

describe('the browser host', () => {
  it('answers 401 without a token and 403 with a wrong one, for pages and assets alike', async () => {
    const { port, token } = await host();
    expect((await get(port, '/')).status).toBe(401);
    expect((await get(port, '/assets/app.js')).status).toBe(401);
    expect((await get(port, '/?token=')).status).toBe(401);
    expect((await get(port, `/?token=${token.slice(0, -1)}x`)).status).toBe(403);
    expect((await get(port, '/assets/app.js', { cookie: `hindsight-token-${port}=wrong` })).status).toBe(403);
    // The right token in a cookie for another port's host does not count.
    expect((await get(port, '/assets/app.js', { cookie: `hindsight-token-1=${token}` })).status).toBe(401);
  });

  it('serves the page with the token, sets a same-site HttpOnly cookie, and injects the bridge before the viewer', async () => {
    const { port, token } = await host();
    const page = await get(port, `/?token=${token}`);
    expect(page.status).toBe(200);
    expect(String(page.headers['set-cookie'])).toContain(`hindsight-token-${port}=${token}; HttpOnly; SameSite=Strict`);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const bridge = page.body.indexOf('/assets/hindsight-bridge.js');
    expect(bridge).toBeGreaterThan(0);
    expect(bridge).toBeLessThan(page.body.indexOf('./assets/app.js'));
    expect(page.body).toContain('&quot;version&quot;:&quot;9.9.9&quot;');
    const asset = await get(port, '/assets/app.js', { cookie: `hindsight-token-${port}=${token}` });
    expect(asset).toMatchObject({ status: 200, body: 'console.log("viewer")' });
    expect(asset.headers['content-type']).toContain('text/javascript');
  });

  it('refuses other host names (DNS rebinding) and paths outside the viewer folder', async () => {
    const running = await host();
    const { port, token } = running;
    const cookie = `hindsight-token-${port}=${token}`;
    const secret = `${basename(running.rendererDir)}-secret.txt`;
    for (const path of [`/assets/..%2f..%2f${secret}`, `/..%2f${secret}`, `/%2e%2e%2f${secret}`]) {
      expect((await get(port, path, { cookie })).status, path).toBe(404);
    }
    expect((await get(port, `/?token=${token}`, { host: `evil.example:${port}` })).status).toBe(403);
    for (const path of ['/../secret.txt', '/%2e%2e/%2e%2e/etc/passwd', '/assets/..%2f..%2fetc%2fpasswd', '/%00', '/assets%5c..%5capp.js']) {
      expect((await get(port, path, { cookie })).status, path).toBe(404);
    }
  });

  it('opens the WebSocket only with the token and from its own origin, and serves calls on it', async () => {
    const { port, token } = await host();
    const base = `ws://127.0.0.1:${port}/ws`;
    expect((await upgrade(base)).status).toBe(401);
    expect((await upgrade(`${base}?token=nope`)).status).toBe(403);
    expect((await upgrade(`${base}?token=${token}`, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await upgrade(`ws://127.0.0.1:${port}/other?token=${token}`)).status).toBe(404);

    const opened = await upgrade(base, { cookie: `hindsight-token-${port}=${token}`, origin: `http://127.0.0.1:${port}` });
    expect(opened.status).toBe(101);
    const ws = opened.ws!;
    onTestFinished(() => ws.close());
    const answers: unknown[] = [];
    ws.on('message', (data) => answers.push(JSON.parse(String(data))));
    ws.send(JSON.stringify({ kind: 'call', id: 1, call: 'listProjects', args: {} }));
    ws.send('{not json');
    ws.send(JSON.stringify({ kind: 'call', id: 2, call: 'readVersion', args: { projectId: 'x', path: '/etc/passwd' } }));
    while (answers.length < 3) await once(ws, 'message');
    expect(answers).toContainEqual({ kind: 'result', id: 1, result: { ok: true, value: [] } });
    expect(answers).toContainEqual(
      expect.objectContaining({ id: -1, result: expect.objectContaining({ ok: false, error: expect.objectContaining({ code: 'BAD_REQUEST' }) }) }),
    );
    expect(answers).toContainEqual(
      expect.objectContaining({ id: 2, result: expect.objectContaining({ ok: false, error: expect.objectContaining({ code: 'BAD_REQUEST' }) }) }),
    );
  });

  it('survives hostile frames: binary, oversized, deeply nested; other sockets keep working', async () => {
    const { port, token } = await host();
    const url = `ws://127.0.0.1:${port}/ws?token=${token}`;
    const hostile = (await upgrade(url)).ws!;
    const answers: { id: number; result: { ok: boolean; error?: { code: string } } }[] = [];
    hostile.on('message', (data) => answers.push(JSON.parse(String(data))));
    hostile.send(Buffer.from([0xff, 0x00, 0x01]), { binary: true });
    hostile.send('['.repeat(100_000) + ']'.repeat(100_000));
    hostile.send(`{"kind":"call","id":3,"call":"fileTree","args":{"projectId":"${'a'.repeat(32)}","__proto__":{"polluted":true}}}`);
    while (answers.length < 3) await once(hostile, 'message');
    for (const answer of answers) expect(answer.result).toMatchObject({ ok: false });
    expect(answers.map((a) => a.result.error!.code)).toEqual(['BAD_REQUEST', 'BAD_REQUEST', 'BAD_REQUEST']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    // More than the 1 MiB a message may hold: that socket is closed (1009), the host carries on.
    const closed = once(hostile, 'close');
    hostile.send('x'.repeat(2 * 1024 * 1024));
    expect((await closed)[0]).toBe(1009);
    const next = (await upgrade(url)).ws!;
    onTestFinished(() => next.close());
    const reply = once(next, 'message');
    next.send(JSON.stringify({ kind: 'call', id: 1, call: 'listProjects', args: {} }));
    expect(JSON.parse(String((await reply)[0]))).toEqual({ kind: 'result', id: 1, result: { ok: true, value: [] } });
  });

  it('refuses a non-loopback address unless remote access is asked for', async () => {
    await expect(host({ host: '0.0.0.0' })).rejects.toMatchObject({ code: 'BAD_REQUEST', details: { host: '0.0.0.0' } });
    const remote = await host({ host: '0.0.0.0', allowRemote: true });
    expect(remote.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    // Reached by another name (a LAN address): served with the token, refused without it.
    expect((await get(remote.port, `/?token=${remote.token}`, { host: `192.168.1.20:${remote.port}` })).status).toBe(200);
    expect((await get(remote.port, '/', { host: `192.168.1.20:${remote.port}` })).status).toBe(401);
  });
});
