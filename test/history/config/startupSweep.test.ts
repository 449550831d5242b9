import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigStore } from '../../../electron/history/config/configStore.js';
import { registerProject } from '../../../electron/history/config/projectEdits.js';
import { sweepProjects } from '../../../electron/history/config/startupSweep.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { growth, onDisk, readerEveryTurn } from './configFixture.js';

// The startup sweep: every known project looked at, each change recorded by its own edit, while a
// reader runs on every turn (the app's startup load). Each edit costs exactly 1 parse: the edit
// reuses the snapshot, and the reader that runs between the rename and its callback parses the saved file.

describe('startup sweep', () => {
  it('records present, moved and gone, one edit per changed project, 1 parse per edit with a reader every turn', async () => {
    const home = tempDir('hindsight-sweep-');
    const store = new ConfigStore(join(home, 'data', 'config.json'));
    const roots = Array.from({ length: 24 }, (_, i) => join(home, `p${i}`));
    for (const root of roots) {
      mkdirSync(root);
      await store.editConfig(registerProject(root));
    }
    // 4 folders gone, 3 moved away with another folder made at their path, 1 turned into a file.
    for (const i of [1, 5, 9, 13]) rmSync(roots[i]!, { recursive: true });
    for (const i of [2, 6, 10]) {
      renameSync(roots[i]!, `${roots[i]}-elsewhere`);
      mkdirSync(roots[i]!);
    }
    rmSync(roots[3]!, { recursive: true });
    writeFileSync(roots[3]!, 'not a folder');
    store.loadConfig();

    const saves = await growth('config.saves', async () =>
      growth('config.parses', () =>
        readerEveryTurn(
          () => store.loadConfig(),
          () => sweepProjects(store),
        ),
      ),
    );
    const parses = saves.result;
    const result = parses.result.result;
    expect(result).toEqual({ checked: 24, changed: 8, states: { present: 16, moved: 3, gone: 5 } });
    expect(saves.by).toBe(8);
    // At most one parse per edit: a reader parses only when its turn falls between an edit's rename
    // and the callback that files the saved config, which is the scheduler's (see configSnapshot).
    expect(parses.by).toBeLessThanOrEqual(8);

    const seen = Object.fromEntries(onDisk(store.path).projects.map((p) => [p.root, p.lastSeen]));
    expect(seen[roots[1]!]).toBe('gone');
    expect(seen[roots[3]!]).toBe('gone');
    expect(seen[roots[2]!]).toBe('moved');
    expect(seen[roots[0]!]).toBe('present');

    // Nothing changed since: a second sweep saves nothing and parses nothing (the snapshot holds).
    const again = await growth('config.saves', () => growth('config.parses', () => sweepProjects(store)));
    expect([again.by, again.result.by, again.result.result.changed]).toEqual([0, 0, 0]);

    // A folder made again at a gone project's path is another folder (new identity): moved, not present.
    mkdirSync(roots[1]!);
    expect((await sweepProjects(store)).states).toEqual({ present: 16, moved: 4, gone: 4 });
  });

  it('does not sweep a corrupt config', async () => {
    const home = tempDir('hindsight-sweep-');
    const path = join(home, 'config.json');
    writeFileSync(path, '{"projects": [');
    await expect(sweepProjects(new ConfigStore(path))).rejects.toMatchObject({ code: 'CONFIG_CORRUPT' });
  });
});
