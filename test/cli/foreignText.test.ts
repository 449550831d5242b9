import { describe, expect, it } from 'vitest';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, runCli, type CliResult } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';

// A history made elsewhere names its folder, files and checkpoints as it likes: an escape
// sequence, a carriage return, a backspace or a bidi override in them must be seen, not obeyed.
// The history comes in as a bundle through the built CLI; every command that prints its text
// (import, log, files, search, deleted, show's refusal) shows those characters as \xNN, and
// --json keeps them as they are (JSON escapes them itself).

const ESC_NAME = 'red\x1b[31m.txt';
const CR_NAME = 'safe.txt\rrm -rf.txt';
const BS_NAME = 'gone\b\b\bok.txt';
const LABEL = 'release\x1b[2J\x1b]0;owned\x07 \u202eexe.txt';

/** Every character a terminal would act on: controls but the line break, DEL, C1, bidi controls. */
function acting(text: string): string[] {
  const acts = (code: number) =>
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    [0x61c, 0x200e, 0x200f].includes(code) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069);
  return [...text].filter((c) => c !== '\n' && acts(c.codePointAt(0)!));
}

function printed(result: CliResult): string {
  return `${result.stdout.toString()}${result.stderr}`;
}

describe('text from a foreign history on a terminal', () => {
  it('prints labels, paths and messages from an imported bundle with their control characters escaped', async () => {
    const parent = tempDir();
    const root = join(parent, 'proj\x1b[7m');
    mkdirSync(root);
    const dataA = tempDir('hindsight-data-');
    const dataB = tempDir('hindsight-data-');
    writeTree(root, { [ESC_NAME]: 'needle one', [CR_NAME]: 'needle two', [BS_NAME]: 'bye' });
    await cliJson(['open', root, '--data-dir', dataA]);
    rmSync(join(root, BS_NAME));
    await cliJson(['checkpoint', root, LABEL, '--data-dir', dataA]);
    const bundle = join(tempDir(), 'history.hsb');
    await cliJson(['export', root, '--to', bundle, '--data-dir', dataA]);

    const outputs: Record<string, CliResult> = {
      import: await runCli(['import', bundle, '--data-dir', dataB]),
      log: await runCli(['log', root, '--data-dir', dataB]),
      files: await runCli(['files', root, '--data-dir', dataB]),
      search: await runCli(['search', root, 'needle', '--data-dir', dataB]),
      deleted: await runCli(['deleted', root, '--data-dir', dataB]),
      show: await runCli(['show', root, `${ESC_NAME}.missing`, '--data-dir', dataB]),
    };
    for (const [command, result] of Object.entries(outputs)) {
      expect(acting(printed(result)), command).toEqual([]);
    }
    expect(outputs.import!.code).toBe(0);
    expect(printed(outputs.import!)).toContain('proj\\x1B[7m');
    expect(printed(outputs.log!)).toContain('release\\x1B[2J\\x1B]0;owned\\x07 \\xE2\\x80\\xAEexe.txt');
    expect(printed(outputs.files!)).toContain('red\\x1B[31m.txt');
    expect(printed(outputs.files!)).toContain('safe.txt\\x0Drm -rf.txt');
    expect(printed(outputs.search!)).toContain('red\\x1B[31m.txt');
    expect(printed(outputs.deleted!)).toContain('gone\\x08\\x08\\x08ok.txt');
    expect(outputs.show!.code).toBe(1);
    expect(printed(outputs.show!)).toContain('red\\x1B[31m.txt.missing');

    // --json keeps the text itself.
    const log = await cliJson<{ label: string | null }[]>(['log', root, '--data-dir', dataB]);
    expect(log.map((s) => s.label)).toContain(LABEL);
    // A path shown escaped is typed back as the same file.
    const shown = await runCli(['show', root, 'red\\x1B[31m.txt', '--data-dir', dataB]);
    expect(shown.stdout.toString()).toBe('needle one');
  });
});
