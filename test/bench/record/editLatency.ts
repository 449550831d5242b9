import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../fixtures/seededRandom.js';
import { quantile } from '../stats.js';
import { seconds, type Figure } from './figures.js';
import type { RecorderProcess } from './recorderProcess.js';
import { filesIn } from './stormFixture.js';

// Case 2: edits spread over the watched projects, one at a time and round-robin, so each
// project's edits are a whole round apart (more than the quiet window). Each edit appends a line
// to a seeded pick among the project's files; its latency is from just before the write to the
// arrival of the JSON line of the group that names the file, minus the quiet window (the wait the
// user asked for).

export interface WatchedProject {
  projectId: string;
  root: string;
}

export async function editLatency(recorder: RecorderProcess, projects: readonly WatchedProject[], edits: number, quietMs: number): Promise<Figure[]> {
  const random = seededRandom(0x29ed17);
  const files = projects.map((p) => filesIn(p.root).filter((f) => f.endsWith('.ts')));
  const latencies: number[] = [];
  for (let k = 0; k < edits; k++) {
    const which = k % projects.length;
    const project = projects[which]!;
    const rel = files[which]![Math.floor(random() * files[which]!.length)]!;
    const from = recorder.lines.length;
    const wrote = performance.now();
    appendFileSync(join(project.root, rel), `// edit ${k}\n`);
    const line = await recorder.waitFor(
      `the edit of ${rel}`,
      (l) => l.json.projectId === project.projectId && Array.isArray(l.json.changed) && (l.json.changed as string[]).includes(rel),
      from,
    );
    latencies.push(line.at - wrote - quietMs);
  }
  const at = `${edits} edits, ${projects.length} projects, quiet window ${quietMs} ms`;
  const p95 = quantile(latencies, 0.95);
  return [
    { case: at, figure: 'write to version line, minus the quiet window: p50', value: seconds(quantile(latencies, 0.5)), target: '', met: null },
    { case: at, figure: 'the same: p95', value: seconds(p95), target: '<= 0.50 s', met: p95 <= 500 },
    { case: at, figure: 'the same: max', value: seconds(Math.max(...latencies)), target: '', met: null },
  ];
}
