import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import type { Page } from '@playwright/test';
import { editLines, sourceText } from '../../test/helpers/realEdits.js';
import { writeFiles } from './fixtures/folders.js';
import { expect, openProject, selectFile, test, versions } from './fixtures/viewer.js';

// The diff benchmark in the viewer (a measurement, not a timed test): a 10,000-line file of real
// code edited at 40 places, from choosing "Compare with: Current file" to its changed lines
// painted (both versions fetched from the host, diffed, drawn side by side), and from "Inline"
// to the inline view painted (no fetch: the diff is reused). The line diff alone is measured
// against diff -u and git by `npm run bench:diff`.
// Run: HINDSIGHT_BENCH=1 npm run test:e2e -- diffBench.spec.ts --project=browser
// Results go to stdout and .bench/viewer-diff.json.

test.skip(process.env.HINDSIGHT_BENCH !== '1', 'viewer diff benchmark: set HINDSIGHT_BENCH=1 to run it');

const RUNS = 5;

/** Runs `act` in the page and times until the diff's changed lines exist and a frame has painted them. */
async function toPaint(page: Page, act: 'compare' | 'inline' | 'side'): Promise<number> {
  return page.evaluate(
    (what) =>
      new Promise<number>((resolve) => {
        type El = {
          shadowRoot: { querySelector(s: string): unknown } | null;
          value: string;
          dispatchEvent(e: unknown): void;
          click(): void;
          textContent: string | null;
        };
        const g = globalThis as unknown as {
          document: { querySelector(s: string): El | null; querySelectorAll(s: string): ArrayLike<El> };
          requestAnimationFrame(cb: () => void): void;
          Event: new (type: string, init: object) => unknown;
        };
        const painted = () =>
          g.document
            .querySelector('[data-testid="diff-view"]')
            ?.shadowRoot?.querySelector(what === 'inline' ? '.cm-editor:not(.cm-merge-a) .cm-changedLine' : '.cm-merge-b .cm-changedLine');
        const started = performance.now();
        const check = () => {
          if (painted()) g.requestAnimationFrame(() => resolve(performance.now() - started));
          else g.requestAnimationFrame(check);
        };
        if (what === 'compare') {
          const select = g.document.querySelector('select')!;
          select.value = 'disk';
          select.dispatchEvent(new g.Event('change', { bubbles: true }));
        } else {
          const label = what === 'inline' ? 'Inline' : 'Side by side';
          Array.from(g.document.querySelectorAll('.segmented button'))
            .find((b) => b.textContent === label)!
            .click();
        }
        check();
      }),
    act,
  );
}

test('viewer: the diff of two 10,000-line files', async ({ viewer, folder }) => {
  test.setTimeout(300_000);
  const dir = folder('hindsight-bench-diff-');
  const before = sourceText(10_000);
  writeFiles(dir, { 'src/big.ts': `${before.join('\n')}\n` });
  await openProject(viewer, dir);
  writeFileSync(join(dir, 'src/big.ts'), `${editLines(before, 40, 40).join('\n')}\n`);
  await selectFile(viewer, 'src/big.ts');
  await expect(versions(viewer)).toHaveCount(2, { timeout: 60_000 });
  await versions(viewer).last().getByRole('button').click();
  const loadAtStart = loadavg();

  const compare: number[] = [];
  const inline: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    compare.push(await toPaint(viewer, 'compare'));
    await expect(viewer.getByRole('status').filter({ hasText: /changes/ })).toHaveText('37 changes');
    inline.push(await toPaint(viewer, 'inline'));
    await viewer.getByRole('button', { name: 'Side by side' }).click();
    await viewer.getByLabel('Compare with').selectOption('none');
    await expect(viewer.getByTestId('diff-view')).toHaveCount(0);
  }
  const result = {
    lines: before.length,
    edits: 40,
    compareToPaintMs: compare.map(Math.round),
    inlineToPaintMs: inline.map(Math.round),
    loadAverage: { start: loadAtStart.map((l) => Math.round(l * 10) / 10), end: loadavg().map((l) => Math.round(l * 10) / 10) },
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync('.bench', { recursive: true });
  writeFileSync('.bench/viewer-diff.json', JSON.stringify(result, null, 2));
});
