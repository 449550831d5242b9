import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { progressBar } from '../../electron/cli/progressBar.js';
import type { Progress } from '../../shared/progress.js';

// The bar of a first copy whose total grows while the walk is still finding files: the fraction
// done shrinks each time the walk finds more, and the bar must hold instead of running back.

function terminal(): { stream: PassThrough & { isTTY: boolean; columns: number }; bars: () => number[]; lines: () => string[] } {
  const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 200 });
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const lines = () =>
    text
      .split(/[\r\n]/)
      .map((l) => l.replaceAll(ERASE_LINE, ''))
      .filter(Boolean);
  return { stream, lines, bars: () => lines().flatMap((l) => (/\[(#*)-*\]/.exec(l) ? [/\[(#*)-*\]/.exec(l)![1]!.length] : [])) };
}

const copy = (filesDone: number, filesTotal: number, bytesDone: number, bytesTotal: number, phase: Progress['phase'] = 'copy'): Progress => ({
  operation: 'first-copy',
  projectId: 'p',
  phase,
  filesDone,
  filesTotal,
  bytesDone,
  bytesTotal,
});

/** The terminal's erase-to-end-of-line sequence the bar ends each redraw with. */
const ERASE_LINE = '\u001b[K';

describe('the CLI progress bar', () => {
  it('never runs backwards while the total still grows', () => {
    const { stream, bars, lines } = terminal();
    const show = progressBar(stream);
    show(copy(0, 0, 0, 0, 'scan'));
    show(copy(50, 100, 5_000, 10_000)); // half
    show(copy(60, 400, 6_000, 40_000)); // the walk found more: 15%
    show(copy(200, 400, 20_000, 40_000)); // half again
    show(copy(390, 400, 39_000, 40_000));
    show(copy(400, 400, 40_000, 40_000, 'commit'));
    show(copy(400, 400, 40_000, 40_000, 'done'));
    const seen = bars();
    expect(seen.length).toBe(6);
    for (let i = 1; i < seen.length; i++) expect(seen[i], `bar ${i} after ${seen[i - 1]}`).toBeGreaterThanOrEqual(seen[i - 1]!);
    expect(seen.at(-1)).toBe(28);
    expect(lines()[0]).toBe('Scanning…');
    expect(lines().at(-1)).toMatch(/^Copied \[#{28}\] 100% {2}400 of 400 files {2}39 KiB of 39 KiB$/);
  });

  it('starts from zero for the next operation', () => {
    const { stream, bars } = terminal();
    const show = progressBar(stream);
    show(copy(90, 100, 90, 100));
    show({ operation: 'verify', projectId: 'p', phase: 'verify', filesDone: 1, filesTotal: 10, bytesDone: 10, bytesTotal: 100 });
    expect(bars()).toEqual([25, 3]);
  });

  it('keeps to one terminal line', () => {
    const { stream, lines } = terminal();
    stream.columns = 30;
    progressBar(stream)(copy(1, 2, 1, 2));
    expect(lines()[0]!.length).toBeLessThanOrEqual(29);
  });

  it('draws nothing when stderr is not a terminal', () => {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    progressBar(stream)(copy(1, 2, 1, 2));
    expect(text).toBe('');
  });
});
