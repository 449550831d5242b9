import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { dropPageCache, type CacheState } from '../pageCache.js';
import { renderReport, type Results } from './firstCopyReport.js';
import { machineInfo } from './machineInfo.js';
import { buildScenarios, SCENARIO_IDS, type ScenarioId } from './scenarios.js';

// `npm run bench:first-copy -- [--rounds N] [--scenario a,b,d,e,h] [--fixtures DIR] [--scratch DIR]`
// One run: every round runs each entry of each scenario once, in an order rotated every round, on
// a cold page cache when it can be dropped. Prints the markdown report and keeps it, with the raw
// samples as JSON, under .bench/results/.

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    scenario: { type: 'string', default: SCENARIO_IDS.join(',') },
    fixtures: { type: 'string', default: '.bench/fixtures' },
    scratch: { type: 'string', default: '.bench/scratch' },
    cli: { type: 'string', default: fileURLToPath(new URL('./cli/hindsight.js', import.meta.url)) },
    results: { type: 'string', default: '.bench/results' },
  },
});
const rounds = Number(values.rounds);
const ids = values.scenario.split(',').map((v) => v.trim()) as ScenarioId[];
for (const id of ids) {
  if (!SCENARIO_IDS.includes(id)) throw new Error(`Unknown scenario ${id}: choose from ${SCENARIO_IDS.join(', ')} (c runs inside a and b).`);
}
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number of at least 1.');

const skipped = new Set<string>();
const scratchRoot = resolve(values.scratch);
const scenarios = buildScenarios(
  ids,
  {
    fixtures: resolve(values.fixtures),
    cli: resolve(values.cli),
    driver: fileURLToPath(new URL('./openDriver.js', import.meta.url)),
  },
  skipped,
);

const results: Results = new Map(scenarios.map((sc) => [sc.id, new Map(sc.entries.map((e) => [e.name, []]))]));
const resultsDir = resolve(values.results);
mkdirSync(resultsDir, { recursive: true });
const started = new Date().toISOString();
const loadAtStart = Math.round(loadavg()[0]! * 10) / 10;
const stem = join(resultsDir, `first-copy-${started.replace(/[:.]/g, '-')}`);
let cache: CacheState = 'cold';
let report = '';
for (let round = 0; round < rounds; round++) {
  for (const scenario of scenarios) {
    const n = scenario.entries.length;
    const order = scenario.entries.map((_, i) => scenario.entries[(i + round) % n]!);
    for (const entry of order) {
      const scratch = join(scratchRoot, `run-${scenario.id}`);
      rmSync(scratch, { recursive: true, force: true });
      mkdirSync(scratch, { recursive: true });
      entry.prepare?.(scratch);
      if (dropPageCache() === 'warm') cache = 'warm';
      const sample = await entry.run(scratch);
      results.get(scenario.id)!.get(entry.name)!.push(sample);
      process.stderr.write(`round ${round + 1}/${rounds} ${scenario.id} ${entry.name}: ${(sample.wallMs / 1000).toFixed(2)} s\n`);
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  // Saved after every round, so a long run that is stopped still leaves its finished rounds.
  report = renderReport(scenarios, results, { machine: machineInfo(scratchRoot), cache, rounds: round + 1, skipped: [...skipped], date: started, loadAtStart });
  writeFileSync(`${stem}.md`, `${report}\n`);
  writeFileSync(
    `${stem}.json`,
    JSON.stringify(
      { started, rounds: round + 1, cache, skipped: [...skipped], results: Object.fromEntries([...results].map(([k, v]) => [k, Object.fromEntries(v)])) },
      null,
      1,
    ),
  );
}
process.stdout.write(`${report}\n\nSaved ${stem}.md and .json\n`);
