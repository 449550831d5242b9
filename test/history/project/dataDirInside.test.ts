import { describe, expect, it, onTestFinished } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, finished, runCli, startCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// Hindsight's data folder may lie inside a project (the default one does when the project is a
// home folder). It is then never recorded: a history that recorded its own database would record
// its own writes forever. A project that is the data folder, or lies inside it, is refused.

/** Resolves with the first stdout line `accept` says yes to. */
function lineFrom(child: ReturnType<typeof startCli>, accept: (line: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const lines = text.split('\n');
      text = lines.pop()!;
      const found = lines.find(accept);
      if (found !== undefined) resolve(found);
    });
    child.on('exit', (code) => reject(new Error(`watch exited (${code}) early`)));
  });
}

describe('a data folder inside the project', () => {
  it('is never recorded: a real watch records the one edit made and nothing of its own writes', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a', 'src/b.txt': 'b' });
    const dataDir = join(root, 'hindsight-data');
    const data = ['--data-dir', dataDir];

    expect(await cliJson(['open', root, ...data])).toMatchObject({ files: 2, firstCopy: true });
    const watch = startCli(['watch', root, ...data, '--json', '--quiet-ms', '100']);
    onTestFinished(() => {
      watch.kill('SIGKILL');
    });
    const exited = finished(watch);
    await lineFrom(watch, (line) => line.includes('"watching":true'));
    const group = lineFrom(watch, (line) => line.includes('"changed":[') && line.includes('a.txt'));
    writeFileSync(join(root, 'a.txt'), 'edited');
    expect(JSON.parse(await group)).toMatchObject({ changed: ['a.txt'] });
    watch.kill('SIGINT');
    expect((await exited).code).toBe(0);

    const log = await cliJson<{ kind: string; files: number }[]>(['log', root, ...data]);
    expect(log.map((s) => [s.kind, s.files])).toEqual([
      ['baseline', 2],
      ['change', 1],
    ]);
    const files = await cliJson<{ path: string }[]>(['files', root, ...data]);
    expect(files.map((f) => f.path)).toEqual(['a.txt', 'src/b.txt']);
    // The next open's rescan finds nothing new either.
    await cliJson(['open', root, ...data]);
    expect(await cliJson<unknown[]>(['log', root, ...data])).toHaveLength(2);
  });

  it('refuses a project that is the data folder or lies inside it, before registering it', async () => {
    const dataDir = tempDir('hindsight-data-');
    const project = tempDir();
    await cliJson(['open', project, '--data-dir', dataDir]);
    for (const folder of [dataDir, join(dataDir, 'projects')]) {
      const refused = await runCli(['open', folder, '--data-dir', dataDir]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`Hindsight's data folder ${dataDir}`);
    }
    const projects = await cliJson<{ root: string }[]>(['projects', '--data-dir', dataDir]);
    expect(projects.map((p) => p.root)).toEqual([project]);
  });
});
