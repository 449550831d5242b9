import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LineVersion, VersionInfo } from '../../shared/contract.js';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';

// `log FOLDER PATH --lines A,B`: the versions that changed those lines of the newest version,
// followed as lines above them come and go; --json is log's VersionInfo with the lines and the
// change added; a range the newest version does not have is refused with a clear error.

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`);

describe('log --lines', () => {
  it('lists the versions that changed the lines, following them as lines above come and go', async () => {
    const root = tempDir();
    const lines = numbered(20);
    writeTree(root, { 'f.txt': lines.join('') });
    const dataDir = tempDir('hindsight-data-');
    const record = async (next: string[]) => {
      writeFileSync(join(root, 'f.txt'), next.join(''));
      await runCli(['open', root, '--data-dir', dataDir]);
    };
    await runCli(['open', root, '--data-dir', dataDir]); // 1: the first copy
    await record(['new top\n', ...lines]); // 2: a line above: the range moves down by one
    await record(['new top\n', ...lines.slice(0, 9), 'ten\n', ...lines.slice(10)]); // 3: line 10 (now 11) changed
    await record(['new top\n', ...lines.slice(0, 9), 'ten\n', ...lines.slice(10, 17), 'eighteen\n', ...lines.slice(18)]); // 4: below

    const all = await cliJson<VersionInfo[]>(['log', root, 'f.txt', '--data-dir', dataDir]);
    const found = await cliJson<LineVersion[]>(['log', root, 'f.txt', '--lines', '10,12', '--data-dir', dataDir, '--json']);
    expect(found.map((v) => v.versionId)).toEqual([all[0]!.versionId, all[2]!.versionId]);
    expect(found[1]).toMatchObject({ ...all[2], lines: { from: 10, to: 12 }, linesBefore: { from: 10, to: 12 } });
    expect(found[1]!.changes).toEqual([{ beforeLine: 11, removed: ['line 10\n'], afterLine: 11, added: ['ten\n'] }]);
    // The first version added them: its change is limited to the lines followed (then 9-11).
    expect(found[0]).toMatchObject({ lines: { from: 9, to: 11 }, linesBefore: null });
    expect(found[0]!.changes).toEqual([{ beforeLine: 1, removed: [], afterLine: 9, added: ['line 9\n', 'line 10\n', 'line 11\n'] }]);

    const text = (await runCli(['log', root, 'f.txt', '--lines', '10,12', '--data-dir', dataDir])).stdout.toString();
    expect(text).toMatch(/^Version 1 .* lines 9-11 \(added here\) {2}restore with --version \d+\n/);
    expect(text).toContain(`Version 3 `);
    expect(text).toContain('@@ -11,1 +11,1 @@\n-line 10\n+ten\n');
    expect(text).not.toContain('Version 2 ');
  });

  it('refuses lines the newest version does not have, and a range it cannot read', async () => {
    const root = tempDir();
    writeTree(root, { 'f.txt': numbered(5).join('') });
    const dataDir = tempDir('hindsight-data-');
    await runCli(['open', root, '--data-dir', dataDir]);
    const past = await runCli(['log', root, 'f.txt', '--lines', '4,6', '--data-dir', dataDir]);
    expect(past.code).toBe(1);
    expect(past.stderr).toBe('hindsight log: f.txt has only 5 lines in that version.\n');
    const reversed = await runCli(['log', root, 'f.txt', '--lines', '4,2', '--data-dir', dataDir]);
    expect(reversed.stderr).toMatch(/Lines 4,2 are not a range/);
    const typo = await runCli(['log', root, 'f.txt', '--lines', '4-6', '--data-dir', dataDir]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/--lines takes the first and the last line, as 120,140 \(not 4-6\)/);
    const noPath = await runCli(['log', root, '--lines', '1,2', '--data-dir', dataDir]);
    expect(noPath.code).toBe(2);
  });
});
