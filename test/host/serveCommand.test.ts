import { describe, expect, it, onTestFinished } from 'vitest';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { cliJson, finished, runCli, startCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { sha256 } from '../helpers/writeTree.js';
import { until } from '../helpers/until.js';

// `hindsight serve` as a user starts it: {"url"} first on stdout, the page behind the token,
// stopped by a real SIGTERM with exit 0; a non-loopback --host is refused before anything listens;
// every known project is recorded with no page connected.

describe('hindsight serve', () => {
  it('prints its URL as the first JSON line, serves with the token, and stops on SIGTERM', async () => {
    const rendererDir = tempDir('hindsight-renderer-');
    writeFileSync(join(rendererDir, 'index.html'), '<html><head></head><body>viewer</body></html>');
    const child = startCli(['serve', '--json', '--data-dir', tempDir('hindsight-data-'), '--renderer-dir', rendererDir]);
    onTestFinished(() => void child.kill('SIGKILL'));
    const done = finished(child);
    const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
    const { url } = JSON.parse(line) as { url: string };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/);

    expect((await fetch(url)).status).toBe(200);
    expect((await fetch(url.replace(/\?token=.*/, ''))).status).toBe(401);
    expect((await fetch(url.replace(/token=./, 'token=#'))).status).toBe(401);
    expect((await fetch(`${url.slice(0, -4)}AAAA`)).status).toBe(403);

    child.kill('SIGTERM');
    const result = await done;
    expect(result.code).toBe(0);
  });

  it('refuses credentials handed over a socket: it has no keychain and takes them from its environment', async () => {
    const dataDir = tempDir('hindsight-data-');
    const child = startCli(['serve', '--json', '--data-dir', dataDir, '--renderer-dir', tempDir('hindsight-renderer-')]);
    onTestFinished(() => void child.kill('SIGKILL'));
    const done = finished(child);
    const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
    const url = new URL((JSON.parse(line) as { url: string }).url);
    const ws = new WebSocket(`ws://${url.host}/ws?token=${url.searchParams.get('token')}`);
    await once(ws, 'open');
    const answer = once(ws, 'message');
    ws.send(
      JSON.stringify({
        kind: 'call',
        id: 7,
        call: 'useRemoteCredentials',
        args: { remote: 'origin', credentials: { accessKeyId: 'AKIDHOST', secretAccessKey: 'host-secret-123' } },
      }),
    );
    const [data] = (await answer) as [Buffer];
    const reply = JSON.parse(String(data)) as { id: number; result: { ok: boolean; error?: { code: string; message: string } } };
    expect(reply.id).toBe(7);
    expect(reply.result.ok).toBe(false);
    expect(reply.result.error?.code).toBe('KEYCHAIN_UNAVAILABLE');
    expect(reply.result.error?.message).toContain('AWS_ACCESS_KEY_ID');
    expect(reply.result.error?.message).not.toMatch(/\n/);
    ws.close();
    child.kill('SIGTERM');
    expect((await done).code).toBe(0);
  });

  it('says how to build the viewer when it is not built', async () => {
    const child = startCli(['serve', '--json', '--data-dir', tempDir('hindsight-data-'), '--renderer-dir', tempDir('hindsight-empty-')]);
    onTestFinished(() => void child.kill('SIGKILL'));
    const done = finished(child);
    const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
    const page = await fetch((JSON.parse(line) as { url: string }).url);
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('npm run build');
    child.kill('SIGTERM');
    expect((await done).code).toBe(0);
  });

  it('records an edit of a known project with no page connected', async () => {
    const data = tempDir('hindsight-data-');
    const root = tempDir();
    writeFileSync(join(root, 'a.txt'), 'one');
    await cliJson(['open', root, '--data-dir', data]);
    expect((await runCli(['config', 'set', 'quietWindowMs', '100', '--data-dir', data])).code).toBe(0);
    const child = startCli(['serve', '--json', '--data-dir', data, '--renderer-dir', tempDir('hindsight-empty-')]);
    onTestFinished(() => void child.kill('SIGKILL'));
    const done = finished(child);
    await once(createInterface({ input: child.stdout! }), 'line');
    writeFileSync(join(root, 'a.txt'), 'two');
    const versions = () => cliJson<{ hash: string }[]>(['log', root, 'a.txt', '--data-dir', data]).then((v) => v.map((x) => x.hash));
    await until(async () => (await versions()).length >= 2, { everyMs: 100 });
    child.kill('SIGTERM');
    expect((await done).code).toBe(0);
    expect(await versions()).toEqual([sha256('one'), sha256('two')]);
  });

  it('refuses a non-loopback host without --allow-remote', async () => {
    const result = await finished(startCli(['serve', '--json', '--host', '0.0.0.0', '--data-dir', tempDir('hindsight-data-')]));
    expect(result.code).toBe(1);
    expect(result.stdout.toString()).toBe('');
    expect(result.stderr).toContain('Refusing to serve on 0.0.0.0');
    expect(result.stderr).toContain('--allow-remote');
  });
});
