import { describe, expect, it, onTestFinished } from 'vitest';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { finished, startCli } from '../helpers/runCli.js';
import { lastTrace, SLOW_PATTERN, slowProject } from '../helpers/slowSearch.js';
import { tempDir } from '../helpers/tempDirs.js';

// The browser host (`hindsight serve`, a real process) while a long search runs: the search is on
// its own thread, so another call and a page load are answered before it ends; when the page that
// asked goes away, the search ends with it (counted in the host's trace), and the host goes on.

interface Answer {
  id: number;
  result: { ok: boolean; value?: unknown; error?: { code: string } };
}

async function connect(url: string): Promise<{ ws: WebSocket; answer: (id: number) => Promise<Answer>; answered: Map<number, Answer> }> {
  const ws = new WebSocket(url.replace('http://', 'ws://').replace('/?token=', '/ws?token='));
  await once(ws, 'open');
  const answered = new Map<number, Answer>();
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as Answer & { kind: string };
    if (message.kind === 'result') answered.set(message.id, message);
  });
  const answer = async (id: number): Promise<Answer> => {
    while (!answered.has(id)) await once(ws, 'message');
    return answered.get(id)!;
  };
  return { ws, answer, answered };
}

describe('hindsight serve while a search runs', () => {
  it('answers another call and the page during a long search, and ends the search when its page goes away', async () => {
    const root = slowProject();
    const rendererDir = tempDir('hindsight-renderer-');
    writeFileSync(join(rendererDir, 'index.html'), '<html><head></head><body>viewer</body></html>');
    const trace = join(tempDir(), 'trace.jsonl');
    const child = startCli(['serve', '--json', '--data-dir', tempDir('hindsight-data-'), '--renderer-dir', rendererDir], { HINDSIGHT_TRACE: trace });
    onTestFinished(() => void child.kill('SIGKILL'));
    const done = finished(child);
    const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
    const { url } = JSON.parse(line) as { url: string };

    const page = await connect(url);
    page.ws.send(JSON.stringify({ kind: 'call', id: 1, call: 'openProject', args: { path: root } }));
    const opened = await page.answer(1);
    const { projectId } = opened.result.value as { projectId: string };

    // The search first, then a call on the same socket: handled in that order, so the call is
    // answered while the search is running.
    page.ws.send(JSON.stringify({ kind: 'call', id: 2, call: 'search', args: { projectId, query: SLOW_PATTERN, regex: true } }));
    page.ws.send(JSON.stringify({ kind: 'call', id: 3, call: 'log', args: { projectId } }));
    expect((await page.answer(3)).result.ok).toBe(true);
    expect(page.answered.has(2)).toBe(false);
    const loaded = await fetch(url);
    expect(loaded.status).toBe(200);
    expect(await loaded.text()).toContain('viewer');
    expect(page.answered.has(2)).toBe(false);

    // The page goes away mid-search; the host answers the next page's search.
    page.ws.close();
    await once(page.ws, 'close');
    const next = await connect(url);
    onTestFinished(() => next.ws.close());
    next.ws.send(JSON.stringify({ kind: 'call', id: 1, call: 'search', args: { projectId, query: '3', limit: 5 } }));
    const found = await next.answer(1);
    expect((found.result.value as { results: { path: string }[] }).results.map((hit) => hit.path)).toEqual(['slow/f3.txt']);

    child.kill('SIGTERM');
    expect((await done).code).toBe(0);
    expect(lastTrace(trace)).toMatchObject({ 'search.threads': 2, 'search.cancelled': 1 });
  });
});
