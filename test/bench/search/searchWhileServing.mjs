// The figures of "Search never hangs" in docs/PERFORMANCE.md, from the built CLI (npm run
// build:cli first): how long `hindsight search P '(a|aa)*b' --regex` takes over a 50 KB file of
// `a`s (the whole process, median of 5, beside a plain search of the same file), and how fast
// `hindsight serve` answers a page load and a call while a costly search runs on it (median and
// slowest of 10 loads, each load one after the other). Usage: node test/bench/search/searchWhileServing.mjs
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';

const cli = fileURLToPath(new URL('../../../out/cli/hindsight.js', import.meta.url));
const temp = mkdtempSync(join(tmpdir(), 'hindsight-search-bench-'));
const project = join(temp, 'project');
const dataDir = join(temp, 'data');
const rendererDir = join(temp, 'renderer');
mkdirSync(join(project, 'slow'), { recursive: true });
mkdirSync(rendererDir);
writeFileSync(join(rendererDir, 'index.html'), '<html><body>viewer</body></html>');
writeFileSync(join(project, 'as.txt'), 'a'.repeat(50 * 1024));
for (let i = 0; i < 4; i++) writeFileSync(join(project, 'slow', `f${i}.txt`), `${'a'.repeat(1000 * 1024)}\n${i}\n`);
const costly = `${'(a|aa)*'.repeat(20)}b`;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;

try {
  execFileSync(process.execPath, [cli, 'open', project, '--data-dir', dataDir]);
  const runs = (args) =>
    Array.from({ length: 5 }, () => {
      const start = process.hrtime.bigint();
      execFileSync(process.execPath, [cli, 'search', project, ...args, '--path', 'as.txt', '--data-dir', dataDir]);
      return ms(start);
    });
  const catastrophic = runs(['(a|aa)*b', '--regex']);
  const plain = runs(['aaab']);
  console.log(
    `(a|aa)*b --regex over 50 KB of a: median ${median(catastrophic).toFixed(0)} ms, slowest ${Math.max(...catastrophic).toFixed(0)} ms (plain text: median ${median(plain).toFixed(0)} ms)`,
  );

  const serve = spawn(process.execPath, [cli, 'serve', '--json', '--data-dir', dataDir, '--renderer-dir', rendererDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = await once(createInterface({ input: serve.stdout }), 'line');
  const { url } = JSON.parse(line);
  const ws = new WebSocket(url.replace('http://', 'ws://').replace('/?token=', '/ws?token='));
  await once(ws, 'open');
  const answers = new Map();
  ws.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (message.kind === 'result') answers.set(message.id, message);
  });
  const answer = async (id) => {
    while (!answers.has(id)) await once(ws, 'message');
    return answers.get(id);
  };
  ws.send(JSON.stringify({ kind: 'call', id: 1, call: 'openProject', args: { path: project } }));
  const { projectId } = (await answer(1)).result.value;
  const searchStart = process.hrtime.bigint();
  ws.send(JSON.stringify({ kind: 'call', id: 2, call: 'search', args: { projectId, query: costly, regex: true } }));
  const loads = [];
  const calls = [];
  for (let i = 0; i < 10; i++) {
    let start = process.hrtime.bigint();
    const page = await globalThis.fetch(url);
    await page.text();
    loads.push(ms(start));
    start = process.hrtime.bigint();
    ws.send(JSON.stringify({ kind: 'call', id: 100 + i, call: 'log', args: { projectId } }));
    await answer(100 + i);
    calls.push(ms(start));
  }
  const during = !answers.has(2);
  await answer(2);
  console.log(
    `serve while a costly search runs (${(ms(searchStart) / 1000).toFixed(1)} s, ${during ? 'still running after the 10 loads' : 'ENDED BEFORE THE LAST LOAD'}):`,
  );
  console.log(`  page load: median ${median(loads).toFixed(1)} ms, slowest ${Math.max(...loads).toFixed(1)} ms`);
  console.log(`  log call:  median ${median(calls).toFixed(1)} ms, slowest ${Math.max(...calls).toFixed(1)} ms`);
  ws.close();
  serve.kill('SIGTERM');
  await once(serve, 'exit');
} finally {
  rmSync(temp, { recursive: true, force: true });
}
