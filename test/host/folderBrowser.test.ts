import { describe, expect, it, onTestFinished } from 'vitest';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import { createDispatcher } from '../../electron/history/dispatcher/dispatcher.js';
import { startHost, type RunningHost } from '../../electron/host/hostServer.js';
import type { FolderListing } from '../../shared/contract.js';
import type { Result } from '../../shared/contract/result.js';
import { tempDir } from '../helpers/tempDirs.js';

// "Open folder…" in a browser lists folders through the host's GET /folders, over real HTTP: the
// token and the page's own origin required, the folders under the browse root only ('..' never
// followed, a link leading out neither listed nor entered), each refusal a typed error.

async function hostOn(browseRoot: string): Promise<RunningHost> {
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  const dispatcher = createDispatcher(engine, { watch: false });
  const host = await startHost({ dispatcher, rendererDir: tempDir('hindsight-renderer-'), meta: { platform: 'linux', version: '9.9.9' }, browseRoot });
  onTestFinished(async () => {
    await host.close();
    await dispatcher.close();
    engine.close();
  });
  return host;
}

async function folders(
  host: RunningHost,
  path: string | null,
  headers: Record<string, string> = {},
): Promise<{ status: number; result: Result<FolderListing> }> {
  const query = path === null ? '' : `&path=${encodeURIComponent(path)}`;
  const reply = await fetch(`http://127.0.0.1:${host.port}/folders?token=${host.token}${query}`, { headers });
  return { status: reply.status, result: (await reply.json()) as Result<FolderListing> };
}

function home(): { home: string; outside: string } {
  const base = tempDir('hindsight-browse-');
  const homeDir = join(base, 'home');
  const outside = join(base, 'elsewhere');
  for (const dir of ['projects/site/src', 'projects/notes', 'Documents', '.config']) mkdirSync(join(homeDir, dir), { recursive: true });
  mkdirSync(join(outside, 'secret'), { recursive: true });
  writeFileSync(join(homeDir, 'todo.txt'), 'a file, not listed');
  symlinkSync(join(homeDir, 'projects/site'), join(homeDir, 'site-link'));
  symlinkSync(outside, join(homeDir, 'escape'));
  symlinkSync(join(homeDir, 'nowhere'), join(homeDir, 'dangling'));
  return { home: homeDir, outside };
}

describe('GET /folders', () => {
  it('lists the child folders of the home folder and below it, links inside it included', async () => {
    const { home: root } = home();
    const host = await hostOn(root);
    const top = await folders(host, null);
    expect(top.status).toBe(200);
    expect(top.result).toEqual({
      ok: true,
      value: { path: root, parent: null, root, folders: ['.config', 'Documents', 'projects', 'site-link'], truncated: false },
    });
    const below = await folders(host, join(root, 'projects'));
    expect(below.result).toEqual({ ok: true, value: { path: join(root, 'projects'), parent: root, root, folders: ['notes', 'site'], truncated: false } });
    const linked = await folders(host, join(root, 'site-link'));
    expect(linked.result.ok && linked.result.value).toMatchObject({ path: join(root, 'projects/site'), parent: join(root, 'projects'), folders: ['src'] });
  });

  it("refuses what lies outside, '..', a link out, and paths that are not folders, each with its code", async () => {
    const { home: root, outside } = home();
    const host = await hostOn(root);
    const refused = async (path: string, status: number, code: string) => {
      const answer = await folders(host, path);
      expect(answer.status, path).toBe(status);
      expect(answer.result.ok ? null : answer.result.error.code, path).toBe(code);
    };
    await refused(dirname(root), 403, 'PATH_OUTSIDE_ROOT');
    await refused(outside, 403, 'PATH_OUTSIDE_ROOT');
    await refused(join(root, 'escape'), 403, 'PATH_OUTSIDE_ROOT');
    await refused(join(root, 'escape', 'secret'), 403, 'PATH_OUTSIDE_ROOT');
    await refused(`${root}/projects/..`, 400, 'PATH_INVALID');
    await refused(`${root}/../home/projects`, 400, 'PATH_INVALID');
    await refused('projects', 400, 'PATH_INVALID');
    await refused(`${root}/projects\0`, 400, 'PATH_INVALID');
    await refused(join(root, 'todo.txt'), 400, 'NOT_A_FOLDER');
    await refused(join(root, 'missing'), 404, 'FOLDER_NOT_FOUND');
    await refused(join(root, 'dangling'), 404, 'FOLDER_NOT_FOUND');
  });

  it('needs the token and, from a browser, the page its host served', async () => {
    const { home: root } = home();
    const host = await hostOn(root);
    expect((await fetch(`http://127.0.0.1:${host.port}/folders`)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${host.port}/folders?token=${host.token.slice(0, -2)}xx`)).status).toBe(403);
    const foreign = await fetch(`http://127.0.0.1:${host.port}/folders?token=${host.token}`, { headers: { Origin: 'http://evil.example' } });
    expect(foreign.status).toBe(403);
    expect((await folders(host, null, { Origin: `http://127.0.0.1:${host.port}` })).status).toBe(200);
  });
});
