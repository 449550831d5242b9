import { quantile } from '../stats.js';
import type { LogResult } from './logScenario.js';
import { finalSize, growths, medianGrowth, type ToolRecord } from './recordStates.js';
import type { ReplayResult } from './replayScenario.js';

// bench:density's tables: each store's size after every state (du's apparent and allocated
// bytes), what a state added, and Hindsight's figure over each other store's, with issue 30's
// targets (replay: Hindsight's store <= 1.0x restic's; log: growth per version <= 2x restic's).

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(2);
const kib = (bytes: number) => (bytes / 2 ** 10).toFixed(1);
const times = (ratio: number) => (Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : 'n/a');
const seconds = (ms: number) => (ms / 1000).toFixed(0);

/** Hindsight's figure over the tool's (n/a when either is missing or the tool's is not positive). */
export function ratioOf(records: readonly ToolRecord[], figure: (record: ToolRecord) => number, tool: ToolRecord): number {
  const hindsight = records.find((r) => r.name === 'hindsight');
  if (!hindsight) return NaN;
  const theirs = figure(tool);
  return theirs > 0 ? figure(hindsight) / theirs : NaN;
}

export function targetLine(records: readonly ToolRecord[], figure: (record: ToolRecord) => number, what: string, limit: number): string {
  const restic = records.find((r) => r.name === 'restic');
  if (!restic || !records.some((r) => r.name === 'hindsight')) return `target (${what} <= ${limit}x restic's): not measured, hindsight or restic not run`;
  const ratio = ratioOf(records, figure, restic);
  return `target (${what} <= ${limit}x restic's): ${times(ratio)}, ${ratio <= limit ? 'met' : 'not met'}`;
}

/** Hindsight's bytes by form, under a table. */
export function breakdownLine(records: readonly ToolRecord[]): string[] {
  const b = records.find((r) => r.name === 'hindsight')?.breakdown;
  if (!b) return [];
  return [
    `hindsight's store at the end: ${b.rawBlobs.files} raw blob files ${mib(b.rawBlobs.bytes)} MiB, ${b.compressedBlobs.files} compressed blob files ${mib(b.compressedBlobs.bytes)} MiB, ${b.other.files} other files (history.db, its backup, config) ${mib(b.other.bytes)} MiB`,
  ];
}

export function replayTable(result: ReplayResult): string {
  const size = (r: ToolRecord) => finalSize(r).apparentBytes;
  const allocated = (r: ToolRecord) => finalSize(r).allocatedBytes;
  const rows = result.tools.map((r) => {
    const g = growths(r.sizes);
    const name = r.finished ? `${r.name} (repacked at the end; growth is loose objects)` : r.name;
    return `| ${name} | ${mib(size(r))} | ${mib(allocated(r))} | ${mib(r.sizes[0]!.apparentBytes)} | ${kib(medianGrowth(r.sizes))} | ${kib(quantile(g, 0.9))} | ${times(ratioOf(result.tools, size, r))} | ${times(ratioOf(result.tools, allocated, r))} | ${seconds(r.wallMs)} |`;
  });
  return [
    `replay: ${result.repository} (${result.path}), ${result.commits} first-parent commits ${result.first}..${result.last} (oldest..newest); last state ${result.lastState.files} files, ${mib(result.lastState.apparentBytes)} MiB (du -sb)`,
    '| store | size MiB (du -sb) | on disk MiB (du -sB1) | after the first state MiB | median growth per commit KiB | p90 growth KiB | hindsight / this (size) | hindsight / this (on disk) | time s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    ...breakdownLine(result.tools),
    targetLine(result.tools, size, "hindsight's store", 1.0),
  ].join('\n');
}

export function logTable(result: LogResult): string {
  const growth = (r: ToolRecord) => medianGrowth(r.sizes);
  const rows = result.tools.map((r) => {
    const g = growths(r.sizes);
    const mean = g.reduce((a, b) => a + b, 0) / g.length;
    return `| ${r.name} | ${mib(r.sizes[0]!.apparentBytes)} | ${kib(growth(r))} | ${kib(mean)} | ${kib(Math.max(...g))} | ${mib(finalSize(r).apparentBytes)} | ${times(ratioOf(result.tools, growth, r))} | ${seconds(r.wallMs)} |`;
  });
  return [
    `log: a ${mib(result.logBytes)} MiB seeded log, then ${result.appends} appends of ${result.appendBytes} bytes, a version recorded after each`,
    '| store | after the first version MiB | median growth per version KiB | mean KiB | largest KiB | size at the end MiB (du -sb) | hindsight / this (median growth) | time s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    ...breakdownLine(result.tools),
    targetLine(result.tools, growth, "hindsight's growth per version", 2),
  ].join('\n');
}
