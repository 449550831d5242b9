import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSchema, type HindsightConfig, type KnownProject } from '../../../electron/history/config/configSchema.js';
import { ConfigStore } from '../../../electron/history/config/configStore.js';
import { setSetting } from '../../../electron/history/config/projectEdits.js';
import { counter } from '../../../electron/history/trace.js';
import type { BenchCase, BenchSuite } from '../benchSuite.js';

// config.json at 50, 500, 5,000 and 4,712 known projects (4,712: the size of a real heavy user's
// list in the issue). Synthetic, live-shaped rows: long real-looking paths, identities, a few
// pinned, some moved or gone, and a field this version does not know. Cases per size:
//   fresh-load      a new store's first loadConfig (one parse)
//   snapshot-hit    1,000 loadConfig calls on a warm snapshot
//   edit            one editConfig that changes a setting
//   edit-then-load  that edit, then one loadConfig
//   edit-reader     that edit while a reader calls loadConfig on every event-loop turn
// Each edit row also reports parsesPerEdit (exact, from the config.parses counter).

const SIZES = [50, 500, 5000, 4712];

function syntheticConfig(projects: number): HindsightConfig {
  const rows: KnownProject[] = [];
  const states = ['present', 'present', 'present', 'present', 'moved', 'gone'] as const;
  for (let i = 0; i < projects; i++) {
    const id = (i.toString(16).padStart(8, '0') + 'c0ffee0123456789abcdef0123456789').slice(0, 32);
    const group = ['clients', 'video', 'notes', 'scripts', 'design'][i % 5]!;
    rows.push({
      id,
      root: `/home/alex/work/${group}/${2019 + (i % 7)}/project-${i}-${'x'.repeat(i % 23)}`,
      name: `project-${i}`,
      addedAt: 1_700_000_000_000 + i * 60_000,
      lastOpenedAt: 1_760_000_000_000 + i * 1_000,
      pinned: i % 17 === 0,
      lastSeen: states[i % states.length]!,
      identity: { dev: '66306', ino: String(1_000_000 + i), birthtimeNs: String(1_700_000_000_000_000_000n + BigInt(i)) },
      colorTag: i % 3 === 0 ? 'amber' : undefined,
    });
  }
  return configSchema.parse({ projects: rows, settings: { excludePatterns: ['*.tmp', 'node_modules/', 'render-cache/'] }, window: { maximized: true } });
}

interface Fixture {
  dir: string;
  store: ConfigStore;
  flip: number;
}

function fixture(projects: number): Fixture {
  const dir = mkdtempSync(join(tmpdir(), `hindsight-config-bench-${projects}-`));
  writeFileSync(join(dir, 'config.json'), `${JSON.stringify(syntheticConfig(projects), null, 2)}\n`);
  return { dir, store: new ConfigStore(join(dir, 'config.json')), flip: 0 };
}

/** An edit that really changes the file: the quiet window alternates between two values. */
function edit(f: Fixture) {
  f.flip++;
  return f.store.editConfig(setSetting('quietWindowMs', 2000 + (f.flip % 2)));
}

async function withReaderEveryTurn<T>(store: ConfigStore, work: () => Promise<T>): Promise<{ result: T; reads: number }> {
  let running = true;
  let reads = 0;
  const loop = () => {
    if (!running) return;
    store.loadConfig();
    reads++;
    setImmediate(loop);
  };
  setImmediate(loop);
  try {
    return { result: await work(), reads };
  } finally {
    running = false;
  }
}

function casesAt(projects: number): BenchCase[] {
  let f: Fixture | undefined;
  const setup = () => {
    f = fixture(projects);
    f.store.loadConfig();
  };
  const teardown = () => {
    if (f) rmSync(f.dir, { recursive: true, force: true });
    f = undefined;
  };
  const parsesDuring = async (work: () => Promise<unknown>) => {
    const before = counter('config.parses');
    await work();
    return { parsesPerEdit: counter('config.parses') - before };
  };
  return [
    {
      name: `fresh-load-${projects}`,
      iterations: 15,
      setup,
      run: () => {
        new ConfigStore(f!.store.path).loadConfig();
      },
      teardown,
    },
    {
      name: `snapshot-hit-${projects}`,
      iterations: 15,
      setup,
      run: () => {
        for (let i = 0; i < 1000; i++) f!.store.loadConfig();
      },
      teardown,
    },
    { name: `edit-${projects}`, iterations: 15, setup, run: () => parsesDuring(() => edit(f!)), teardown },
    {
      name: `edit-then-load-${projects}`,
      iterations: 15,
      setup,
      run: () =>
        parsesDuring(async () => {
          await edit(f!);
          f!.store.loadConfig();
        }),
      teardown,
    },
    {
      name: `edit-reader-${projects}`,
      iterations: 15,
      setup,
      run: async () => {
        const before = counter('config.parses');
        const { reads } = await withReaderEveryTurn(f!.store, () => edit(f!));
        // The turn after the edit: the first read that a cleared snapshot would make parse again.
        await new Promise((r) => setImmediate(r));
        f!.store.loadConfig();
        return { parsesPerEdit: counter('config.parses') - before, readsDuringEdit: reads };
      },
      teardown,
    },
  ];
}

const suite: BenchSuite = {
  name: 'config',
  cases: () => SIZES.flatMap(casesAt),
};

export default suite;
