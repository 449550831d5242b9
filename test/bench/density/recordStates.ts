import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { median } from '../stats.js';
import { diskUsage, type DiskUsage } from './diskUsage.js';
import type { StoreBreakdown } from './hindsightBreakdown.js';
import type { StoreTool } from './storeTools.js';

// Puts a sequence of folder states into every store, one state at a time (each tool records the
// state before the next is made), and measures each store's size after each state. The tools run
// one after another, never side by side: only sizes are figures, and a shared machine is spared.

export interface ToolRecord {
  name: string;
  /** The store's size after each state, in order. */
  sizes: DiskUsage[];
  /** After `finish` (git's repack), when the tool has one. */
  finished?: DiskUsage;
  /** Where the bytes are at the end, for a store that can tell (Hindsight's data folder). */
  breakdown?: StoreBreakdown;
  /** Wall and CPU time the tool spent over all states, for orientation only. */
  wallMs: number;
  cpuMs: number;
}

export interface StateSource {
  count: number;
  /** Makes the working folder hold state `index` (0-based), returns its label. */
  prepare: (index: number) => string;
}

export async function recordStates(
  tools: readonly StoreTool[],
  work: string,
  states: StateSource,
  onState?: (index: number, label: string) => void,
): Promise<ToolRecord[]> {
  const records = tools.map((tool): ToolRecord => ({ name: tool.name, sizes: [], wallMs: 0, cpuMs: 0 }));
  for (const tool of tools) {
    rmSync(tool.store, { recursive: true, force: true });
    mkdirSync(dirname(tool.store), { recursive: true });
    tool.init();
  }
  for (let index = 0; index < states.count; index += 1) {
    const label = states.prepare(index);
    onState?.(index, label);
    for (const [i, tool] of tools.entries()) {
      const run = await tool.record(work, label, index === 0);
      records[i]!.wallMs += run.wallMs;
      records[i]!.cpuMs += run.cpuMs;
      records[i]!.sizes.push(diskUsage(tool.store));
    }
  }
  for (const [i, tool] of tools.entries()) {
    records[i]!.breakdown = tool.breakdown?.();
    if (!tool.finish) continue;
    const run = await tool.finish();
    records[i]!.wallMs += run.wallMs;
    records[i]!.cpuMs += run.cpuMs;
    records[i]!.finished = diskUsage(tool.store);
  }
  return records;
}

/** The store's final size: after `finish` when the tool has one. */
export function finalSize(record: ToolRecord): DiskUsage {
  return record.finished ?? record.sizes.at(-1)!;
}

/** What each state after the first added to the store (apparent bytes; negative if it shrank). */
export function growths(sizes: readonly DiskUsage[]): number[] {
  return sizes.slice(1).map((size, i) => size.apparentBytes - sizes[i]!.apparentBytes);
}

export function medianGrowth(sizes: readonly DiskUsage[]): number {
  return median(growths(sizes));
}
