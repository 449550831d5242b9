import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { sharedCopyPool } from '../../../electron/history/store/copyPool.js';
import { recordPaths } from '../../../electron/history/versions/recordPaths.js';
import type { BenchCase, BenchSuite } from '../benchSuite.js';
import { ensureFixture, type FixtureShape } from '../fixtures/generateFixture.js';
import { measureProcess } from '../measureProcess.js';
import { quantile } from '../stats.js';

// Searching every version (issue 14), on a copy of a seeded fixture with EDITS recorded edits:
//   first-copy-vs-index  the first copy's time and the search index build's, on the same folder
//                        (ratio: index / first copy); then the build that takes in the edits
//   literal-<query>      QUERIES runs of a literal query inside the process: p50 and p95
//   rg-<query>           the same query with `rg -F -i -n` over the working tree only: the yardstick
//                        (ratio: Hindsight's p95 over every version / rg's p95 over one)
//   index-size           the index's bytes on disk against the text bytes it covers
// HINDSIGHT_SEARCH_BENCH_SHAPE=seed-4005 HINDSIGHT_SEARCH_BENCH_EDITS=50 runs it small.

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));
process.env.HINDSIGHT_COPY_WORKER ??= here('../copyWorker.js');
const fixtures = () => resolve(process.env.HINDSIGHT_BENCH_FIXTURES ?? '.bench/fixtures');
const SHAPE = (process.env.HINDSIGHT_SEARCH_BENCH_SHAPE ?? 'seed-50005') as FixtureShape;
const EDITS = Number(process.env.HINDSIGHT_SEARCH_BENCH_EDITS ?? 2000);
const QUERIES = 40;
/** A rare literal (one script's header line) and a commoner one (a word of the fixture's vocabulary with a number). */
const LITERALS = ['script 3133', 'history417'];

interface Prepared {
  engine: HistoryEngine;
  projectId: string;
  root: string;
  base: string;
  firstCopyMs: number;
  indexBuildMs: number;
  editsIndexMs: number;
  versions: number;
}

let prepared: Promise<Prepared> | undefined;

/** The fixture copied, opened (timed), indexed (timed), then EDITS edits recorded and indexed. */
function prepare(): Promise<Prepared> {
  prepared ??= (async () => {
    const source = ensureFixture(fixtures(), SHAPE);
    const base = mkdtempSync(join(fixtures(), '..', 'search-'));
    const root = join(base, 'project');
    execFileSync('cp', ['-a', source, root]);
    const engine = new HistoryEngine(join(base, 'data'));
    let started = performance.now();
    const { projectId } = await engine.open(root);
    const firstCopyMs = performance.now() - started;
    started = performance.now();
    await engine.buildSearchIndex(projectId);
    const indexBuildMs = performance.now() - started;

    // Edits spread over the scripts, each recorded as its own change (one version each).
    const store = engine.store(projectId);
    const scripts = store.index.files
      .filesAt()
      .filter((f) => f.path.endsWith('.ts'))
      .map((f) => f.path);
    for (let i = 0; i < EDITS; i++) {
      const path = scripts[(i * 7919) % scripts.length]!;
      const file = join(root, path);
      writeFileSync(file, `${readFileSync(file, 'utf8')}// edit ${i}: value${i} = history${i % 1000};\n`);
      await recordPaths(store, [path], { kind: 'change', label: null });
    }
    started = performance.now();
    await engine.buildSearchIndex(projectId);
    const editsIndexMs = performance.now() - started;
    return { engine, projectId, root, base, firstCopyMs, indexBuildMs, editsIndexMs, versions: engine.storeStats(projectId, 0).versions };
  })();
  return prepared;
}

function buildCase(): BenchCase {
  return {
    name: 'first-copy-vs-index',
    run: async () => {
      const p = await prepare();
      return {
        firstCopyMs: p.firstCopyMs,
        indexBuildMs: p.indexBuildMs,
        ratio: p.indexBuildMs / p.firstCopyMs,
        editsIndexMs: p.editsIndexMs,
        edits: EDITS,
        versions: p.versions,
      };
    },
  };
}

function literalCase(query: string): BenchCase {
  return {
    name: `literal-${query.replace(/\W+/g, '-')}`,
    run: async () => {
      const { engine, projectId } = await prepare();
      const times: number[] = [];
      let hits = 0;
      for (let i = 0; i < QUERIES; i++) {
        const started = performance.now();
        const result = await engine.search(projectId, { query, regex: false, caseSensitive: false, limit: 500 });
        times.push(performance.now() - started);
        if (!result.indexed || !result.index.done) throw new Error('the search did not use a complete index');
        hits = result.results.length;
      }
      return { p50Ms: quantile(times, 0.5), p95Ms: quantile(times, 0.95), hits };
    },
  };
}

function rgCase(query: string): BenchCase {
  return {
    name: `rg-${query.replace(/\W+/g, '-')}`,
    run: async () => {
      const { root } = await prepare();
      const times: number[] = [];
      let lines = 0;
      for (let i = 0; i < QUERIES; i++) {
        const measured = await measureProcess('rg', ['--fixed-strings', '--ignore-case', '--line-number', '--no-messages', query, root]);
        if (measured.code > 1) throw new Error(`rg failed: ${measured.stderr}`);
        times.push(measured.wallMs);
        lines = measured.stdout.trim() === '' ? 0 : measured.stdout.trim().split('\n').length;
      }
      return { p50Ms: quantile(times, 0.5), p95Ms: quantile(times, 0.95), lines };
    },
  };
}

function sizeCase(): BenchCase {
  return {
    name: 'index-size',
    run: async () => {
      const { engine, projectId } = await prepare();
      const { searchIndex } = engine.storeStats(projectId, 0);
      return {
        indexBytes: searchIndex.indexBytes,
        textBytes: searchIndex.textBytes,
        ratio: searchIndex.indexBytes / searchIndex.textBytes,
        blobs: searchIndex.indexedBlobs,
      };
    },
    teardown: async () => {
      const p = await prepare();
      p.engine.close();
      await sharedCopyPool().close();
      rmSync(p.base, { recursive: true, force: true });
      prepared = undefined;
    },
  };
}

const suite: BenchSuite = {
  name: 'search',
  cases: () => [buildCase(), ...LITERALS.flatMap((q) => [literalCase(q), rgCase(q)]), sizeCase()],
};

export default suite;
