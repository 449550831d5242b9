import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { canMeasureCpu } from './measureProcess.js';
import { formatTable, QUICK_SIZES, ROWS, tableRows, type SizeFigures } from './scale/scaleFigures.js';
import { measureSize } from './scale/scaleRun.js';

// The scale benchmark's --quick run on tiny seed folders, through the built CLI: every figure is
// measured at every size and the table has its rows. Nothing is timed: the figures mean nothing here.

describe('the scale benchmark rig', () => {
  it('measures every figure of a --quick run and lays out one row per figure', async () => {
    const options = { cli: CLI, fixtures: tempDir('hindsight-scale-fixtures-'), scratch: tempDir('hindsight-scale-scratch-'), rounds: 1 };
    const sizes: SizeFigures[] = [];
    for (const files of QUICK_SIZES) sizes.push((await measureSize(files, options)).figures);

    expect(sizes.map((s) => s.files)).toEqual(QUICK_SIZES);
    for (const figures of sizes) {
      for (const [name, value] of Object.entries(figures)) {
        if (name.endsWith('RssKb') && !canMeasureCpu()) continue;
        expect([name, Number.isFinite(value) && value > 0]).toEqual([name, true]);
      }
    }
    const rows = tableRows(sizes);
    expect(rows.map((r) => r.name)).toEqual(ROWS.map((r) => r.name));
    for (const row of rows) {
      expect(row.values).toHaveLength(QUICK_SIZES.length);
      expect(row.growth).toMatch(/^x\S+ \(files x4\.8\)$/);
      expect(row.target === '' ? [''] : ['met', 'NOT met']).toContain(row.verdict);
    }
    expect(rows.filter((r) => r.target !== '').map((r) => r.name)).toEqual([
      'first copy / cp -a',
      'first copy peak RSS',
      'reopen / git status',
      'first tree page',
      "a file's first versions",
      'files peak RSS',
      'log peak RSS',
    ]);
    const table = formatTable(sizes).split('\n');
    expect(table[0]).toMatch(/^figure\s+105 files\s+505 files\s+growth\s+target$/);
    expect(table).toHaveLength(ROWS.length + 1);
  }, 600_000);
});
