import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileEntries } from '../../../electron/history/store/fileEntries.js';
import { ProjectStore } from '../../../electron/history/project/projectStore.js';
import { sharedCopyPool } from '../../../electron/history/store/copyPool.js';
import { walkFolder } from '../../../electron/history/walk/walkFolder.js';

// `node out/bench/profileFirstCopy.js FOLDER [DATA_DIR]`: where a first copy's CPU goes, phase by
// phase, run one after another (no overlap) so each phase's cost can be told apart. CPU is the
// whole process's (every thread: the copy workers too), from process.cpuUsage().

const cpuAtStart = process.cpuUsage();
const wallAtStart = performance.now();
const [folder, dataArg] = process.argv.slice(2);
if (!folder) {
  console.error('Usage: profileFirstCopy FOLDER [DATA_DIR]');
  process.exit(2);
}
const dataDir = dataArg ?? mkdtempSync(join(tmpdir(), 'hindsight-profile-'));
const rows: { phase: string; cpuMs: number; wallMs: number }[] = [
  { phase: 'node start + load the bundled engine', cpuMs: (cpuAtStart.user + cpuAtStart.system) / 1000, wallMs: wallAtStart },
];

async function phase<T>(name: string, work: () => T | Promise<T>): Promise<T> {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const result = await work();
  const used = process.cpuUsage(cpu);
  rows.push({ phase: name, cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - wall });
  return result;
}

const store = await phase('open the store (SQLite, migrations)', () => ProjectStore.open(folder, dataDir));
const pool = sharedCopyPool();
const workers = Math.min(pool.slots.capacity, pool.maxWorkers);
await phase(`start ${workers} copy workers`, () =>
  Promise.all(Array.from({ length: workers }, () => pool.run({ blobsDir: store.blobs.dir, cloneMode: 'auto', files: [] }))),
);
const entries = await phase('walk (readdir, lstat per file)', () => walkFolder(store.root));
const filed = await phase(`copy ${entries.length} files (workers)`, () =>
  fileEntries(entries, { blobs: store.blobs, known: store.index.blobRecords.trustedHashes() }),
);
await phase('commit the baseline (one transaction)', () =>
  store.index.commitSnapshot({ snapshot: { kind: 'baseline', label: 'Baseline' }, versions: filed.versions, blobs: filed.blobs, stats: filed.stats }),
);
await phase('close (WAL checkpoint)', () => store.close());
await pool.close();

const total = rows.reduce((sum, r) => sum + r.cpuMs, 0);
console.log('| phase | CPU ms (all threads) | wall ms |\n| --- | ---: | ---: |');
for (const r of rows) console.log(`| ${r.phase} | ${r.cpuMs.toFixed(0)} | ${r.wallMs.toFixed(0)} |`);
console.log(`| total | ${total.toFixed(0)} | ${performance.now().toFixed(0)} |`);
