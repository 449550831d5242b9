import { parseArgs } from 'node:util';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { sharedCopyPool } from '../../../electron/history/store/copyPool.js';
import { median } from '../stats.js';
import { mainThreadCpuMs } from './mainThreadCpu.js';
import { startSideStat } from './sideStat.js';

// `node out/bench/openDriver.js --data-dir DIR FOLDER...`: opens every folder at once in this one
// process with the engine of this build (scenario b), while a stat runs every 5 ms on the side
// (scenario c). Prints one JSON line: when each project was ready, when all were, and the side
// stat's latencies. The engine is bundled in, so this runs as plain JS. With --idle-ms and no
// folder it only runs the side stat: the floor the machine itself gives a stat. With --reopen each
// folder's first copy is made first, untimed, its project closed, and what is timed is opening it
// again with nothing changed (the app's reopen: Node and the engine already up).

const { values, positionals } = parseArgs({
  options: { 'data-dir': { type: 'string' }, 'stat-every': { type: 'string', default: '5' }, 'idle-ms': { type: 'string' }, reopen: { type: 'boolean' } },
  allowPositionals: true,
});
if (!values['data-dir'] || (positionals.length === 0 && !values['idle-ms'])) {
  console.error("Usage: openDriver --data-dir DIR [--stat-every MS] FOLDER... | --idle-ms MS (the side stat alone: the machine's floor)");
  process.exit(2);
}

const engine = new HistoryEngine(values['data-dir']);
if (values.reopen) {
  for (const folder of positionals) {
    const first = await engine.open(folder);
    if (!first.firstCopy) throw new Error(`${folder} already had a history: the data dir must be fresh.`);
    await engine.closeProject(first.projectId);
  }
}
const side = startSideStat(positionals[0] ?? values['data-dir'], Number(values['stat-every']));
const started = performance.now();
const mainCpuAtStart = mainThreadCpuMs();
const cpuAtStart = process.cpuUsage();
if (values['idle-ms']) await new Promise((resolve) => setTimeout(resolve, Number(values['idle-ms'])));
const readyMs = await Promise.all(
  positionals.map(async (folder) => {
    const result = await engine.open(folder);
    if (result.firstCopy === Boolean(values.reopen))
      throw new Error(`${folder}: expected ${values.reopen ? 'a reopen' : 'a first copy'} (the data dir must be fresh).`);
    return performance.now() - started;
  }),
);
const allDoneMs = performance.now() - started;
// The main thread's CPU over the timed part (the critical path), and every thread's.
const mainAtEnd = mainThreadCpuMs();
const mainThreadMs = mainAtEnd === undefined || mainCpuAtStart === undefined ? undefined : mainAtEnd - mainCpuAtStart;
const used = process.cpuUsage(cpuAtStart);
const cpuMs = (used.user + used.system) / 1000;
const stat = await side.stop();
engine.close();
await sharedCopyPool().close();
readyMs.sort((a, b) => a - b);
const medianReadyMs = readyMs.length ? median(readyMs) : 0;
process.stdout.write(`${JSON.stringify({ projects: positionals.length, readyMs, medianReadyMs, allDoneMs, mainThreadMs, cpuMs, stat })}\n`);
