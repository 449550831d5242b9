import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchSuite } from './benchSuite.js';
import { runSuiteOnce } from './runSuiteOnce.js';

// `node out/bench/runSuite.js NAME [CASE...]`: runs one round of the built suite
// out/bench/suites/NAME.bench.js and prints one JSON line per case. bench:compare runs this file
// of each tree in turn, so each side measures its own code.

const [name, ...cases] = process.argv.slice(2);
const suitesDir = fileURLToPath(new URL('./suites/', import.meta.url));
const file = `${suitesDir}${name}.bench.js`;
if (!name || !existsSync(file)) {
  const known = existsSync(suitesDir)
    ? readdirSync(suitesDir)
        .filter((f) => f.endsWith('.bench.js'))
        .map((f) => f.slice(0, -9))
    : [];
  process.stderr.write(`Usage: runSuite NAME [CASE...]; suites built here: ${known.join(', ') || 'none'}\n`);
  process.exit(2);
}
const suite = ((await import(new URL(`./suites/${name}.bench.js`, import.meta.url).href)) as { default: BenchSuite }).default;
const rows = await runSuiteOnce(suite, cases.length ? (c) => cases.includes(c) : undefined);
for (const row of rows) process.stdout.write(`${JSON.stringify(row)}\n`);
