import { describe, expect, it, onTestFinished } from 'vitest';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, finished, runCli, startCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { sha256 } from '../helpers/writeTree.js';

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
    while ((await versions()).length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
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
