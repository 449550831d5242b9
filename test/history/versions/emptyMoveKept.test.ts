import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { SnapshotInfo } from '../../../shared/history.js';
import { cliJson, runCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { git, makeRepo, write } from '../git/gitFixture.js';
import { otherEngine } from '../bundle/bundleHelpers.js';
import { short } from './gitMoveHelpers.js';

// A snapshot for a move of HEAD that changed no file has no versions. It is a snapshot like any
// other: `log` lists it (a row with 0 files, its title), `log --json` and the engine's log carry
// it, a prune keeps it as its policy keeps any recent snapshot, and a bundle carries it to another
// data folder unchanged.

describe('a snapshot with no versions, for a move of HEAD', () => {
  it('is listed, kept by a prune and carried by a bundle like any other', async () => {
    const root = makeRepo({ 'a.txt': 'one\n' });
    const data = tempDir('hindsight-data-');
    await cliJson(['open', root, '--data-dir', data]);
    write(root, 'a.txt', 'two\n');
    git(root, 'commit', '-qam', 'Second');
    // An open (its rescan) records the edit, titled by the commit; the empty commit after it is a snapshot too.
    await cliJson(['open', root, '--data-dir', data]);
    git(root, 'commit', '-q', '--allow-empty', '-m', 'Nothing changed');
    await cliJson(['open', root, '--data-dir', data]);

    const title = `Committed \`${short(root, 'HEAD')}\` Nothing changed, on main`;
    const log = await cliJson<SnapshotInfo[]>(['log', root, '--data-dir', data]);
    const empty = log.find((s) => s.label === title);
    expect(empty).toMatchObject({ kind: 'change', files: 0, head: git(root, 'rev-parse', 'HEAD'), branch: 'main' });
    expect(log.map((s) => s.label).slice(-2)).toEqual([`Committed \`${short(root, 'HEAD~1')}\` Second, on main`, title]);
    const table = (await runCli(['log', root, '--data-dir', data])).stdout.toString().split('\n');
    expect(table.find((line) => line.includes(title))).toMatch(new RegExp(`^\\s*${empty!.snapshotId}\\s+change\\s+.*\\s0\\s+Edited\\s+`));

    await cliJson(['prune', root, '--data-dir', data]);
    expect(await cliJson<SnapshotInfo[]>(['log', root, '--data-dir', data])).toEqual(log);

    const bundle = join(tempDir(), 'history.hsb');
    await cliJson(['export', root, '--to', bundle, '--data-dir', data]);
    const other = otherEngine();
    const imported = await other.importHistory({ file: bundle }, { as: tempDir() });
    expect(other.log(imported.projectId)).toEqual(log);
  });
});
