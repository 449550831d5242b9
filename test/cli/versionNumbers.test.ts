import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { VersionInfo } from '../../shared/contract.js';
import { cliJson, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';

// The CLI names a version as the viewer does: by its number in the file's history (1 is the
// oldest) and its time. `log FOLDER PATH` numbers the rows and says what --version takes (its
// JSON is the viewer's answer, oldest first); a restore says "version 1" and its time, never
// an internal id as the version's name, nor a snapshot id.

describe('version numbers in the CLI', () => {
  it('log numbers a file’s versions, and restore names the version by its number and time', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'one\n', 'b.txt': 'other\n' });
    const dataDir = tempDir('hindsight-data-');
    const run = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);
    await cliJson(['open', root, '--data-dir', dataDir]);
    // Another file's versions first, so ids and numbers differ.
    for (const text of ['b2\n', 'b three\n']) {
      writeFileSync(join(root, 'b.txt'), text);
      await run('open', root);
    }
    writeFileSync(join(root, 'a.txt'), 'two two\n');
    await run('open', root);
    writeFileSync(join(root, 'a.txt'), 'three three three\n');
    await run('open', root);

    const versions = await cliJson<VersionInfo[]>(['log', root, 'a.txt', '--data-dir', dataDir]);
    expect(versions).toHaveLength(3);
    // Ids are the store's, not the file's numbers: the other file's versions came first.
    expect(versions[2]!.versionId).not.toBe(3);

    const restore = await run('restore', root, 'a.txt', '--version', String(versions[0]!.versionId));
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('one\n');
    expect(restore.stdout.toString()).toMatch(
      /^Restored a\.txt to version 1 \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\); undo with --version \d+\.\nUndo with: hindsight restore \S+ --undo \d+\n$/,
    );
    expect(restore.stdout.toString()).not.toContain('snapshot');

    const log = (await run('log', root, 'a.txt')).stdout.toString().trimEnd().split('\n');
    expect(log[0]).toMatch(/^VERSION\s+DISK\s+KIND\s+TIME\s+SIZE\s+MODE\s+HASH\s+RESTORE WITH\s+ORIGIN\s+NOTE$/);
    expect(log.slice(1).map((l) => l.trim().split(/\s+/)[0])).toEqual(['1', '2', '3', '4']);
    expect(log.at(-1)).toMatch(/Restored from version 1$/);
    expect(log.at(-1)).toContain(`--version ${(await cliJson<VersionInfo[]>(['log', root, 'a.txt', '--data-dir', dataDir])).at(-1)!.versionId}`);
    // The snapshot's title names the version the same way.
    const snapshots = await cliJson<{ label: string | null }[]>(['log', root, '--data-dir', dataDir]);
    expect(snapshots.at(-1)!.label).toBe('Restored a.txt to version 1');
  });

  it('--version takes an id of the file or vN (its number as log lists it); an id of another file is refused, naming the forms', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a one\n', 'b.txt': 'b one\n' });
    const dataDir = tempDir('hindsight-data-');
    const run = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);
    await run('open', root);
    for (const text of ['b two\n', 'b three\n']) {
      writeFileSync(join(root, 'b.txt'), text);
      await run('open', root);
    }
    const json = <T>(...args: string[]) => cliJson<T>([...args, '--data-dir', dataDir]);
    const [a] = await json<VersionInfo[]>('log', root, 'a.txt');
    const b = await json<VersionInfo[]>('log', root, 'b.txt');
    // An id that is a.txt's and also a place in b.txt's list: the case where the two readings differ.
    expect(b.map((v) => v.versionId)).not.toContain(a!.versionId);
    expect(a!.versionId).toBeLessThanOrEqual(b.length);

    const foreign = await run('restore', root, 'b.txt', '--version', String(a!.versionId));
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain(`${a!.versionId} is not the id of a version of b.txt (for the`);
    expect(foreign.stderr).toContain(`type v${a!.versionId})`);
    expect(foreign.stderr).toMatch(/RESTORE WITH.*vN.*b\.txt has v1 to v3/);
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('b three\n');
    expect((await run('show', root, 'b.txt', '--version', String(a!.versionId))).code).toBe(1);

    expect((await run('show', root, 'b.txt', '--version', 'v2')).stdout.toString()).toBe('b two\n');
    expect((await run('show', root, 'b.txt', '--version', String(b[1]!.versionId))).stdout.toString()).toBe('b two\n');
    const restored = await run('restore', root, 'b.txt', '--version', 'v1');
    expect(restored.stdout.toString()).toMatch(/^Restored b\.txt to version 1 \(/);
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('b one\n');
    const pinned = await run('pin', root, 'b.txt', '--version', 'v2');
    expect(pinned.stdout.toString()).toBe(`Version 2 of b.txt (--version ${b[1]!.versionId}) is pinned: no prune removes it.\n`);

    const past = await run('show', root, 'b.txt', '--version', 'v9');
    expect([past.code, past.stderr]).toEqual([1, expect.stringContaining('There is no v9: b.txt has v1 to v4')]);
    for (const bad of ['x1', 'v0', 'v1x', '1.5', 'v']) {
      const refused = await run('show', root, 'b.txt', '--version', bad);
      expect(refused.code, bad).toBe(2);
      expect(refused.stderr, bad).toMatch(/--version takes a version id \(the RESTORE WITH column.*vN.*HEAD or INDEX/);
    }
    const log = await run('log', root, 'b.txt');
    expect(log.stderr).toMatch(/a prune renumbers them\): --version takes vN for that number, or the RESTORE WITH id/);
  });
});
