import { describe, expect, it } from 'vitest';
import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeGroupResult } from '../../../electron/history/versions/changeGroup.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { sha256 } from '../../helpers/writeTree.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';
import { until } from '../../helpers/until.js';

// Once a storm's group is past its most paths it is a whole rescan: what each further event names
// no longer matters, so the watcher neither stats it nor builds its path (what a checkout of
// 20,000 files would otherwise pay three times a file while git writes). Counted, never timed.

type Group = ChangeGroupResult & { reconciled: boolean };

const FILES = 400;
const MAX_PATHS = 10;

/** A storm over a watched project, as git writes a checkout: each file removed, then written anew. */
async function stormed(extra: (root: string) => void = () => undefined) {
  const spec: Record<string, string> = {};
  for (let i = 0; i < FILES; i++) spec[`src/part${i % 8}/f${i}.txt`] = `first ${i}`;
  const project = await projectWithBaseline(spec);
  const groups: Group[] = [];
  await project.engine.watch(project.projectId, { quietMs: 400, maxGroupMs: 60_000, maxPaths: MAX_PATHS, onGroup: (g) => groups.push(g) });
  await until(() => groups.length >= 1); // the watch's own reconciling rescan
  const before = groups.length;
  resetTrace();
  for (let i = 0; i < FILES; i++) {
    const path = join(project.root, `src/part${i % 8}/f${i}.txt`);
    unlinkSync(path);
    writeFileSync(path, `second ${i}`);
  }
  extra(project.root);
  await until(() => groups.slice(before).some((g) => g.changed.length >= FILES));
  groups.splice(0, before);
  return { ...project, groups };
}

describe('events of a storm past its group', () => {
  it('are neither stat-ed nor turned into paths, and the storm is still one group naming every file', async () => {
    const { engine, projectId, store, groups } = await stormed();
    await engine.unwatch(projectId);
    const recorded = groups.filter((g) => g.changed.length > 0);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.changed).toHaveLength(FILES);
    for (let i = 0; i < FILES; i++) expect(store.index.versions.latestVersion(`src/part${i % 8}/f${i}.txt`)!.hash).toBe(sha256(`second ${i}`));
    // Each file gives two or three events (removed, created, written), looked at as up to five; before the group became a
    // rescan, at most its most paths were looked at: those few events, no more.
    const looked = counter('watch.eventStats') + counter('watch.fileEvents');
    expect(looked).toBeLessThanOrEqual(6 * (MAX_PATHS + 1));
    expect(counter('watch.eventsPassedOver')).toBeGreaterThanOrEqual(2 * (FILES - MAX_PATHS - 1));
  });

  it('watches a folder made during the storm once its rescan is due, so a later edit in it is heard', async () => {
    const { engine, projectId, root, store, groups } = await stormed((r) => {
      mkdirSync(join(r, 'fresh'));
      writeFileSync(join(r, 'fresh/first.txt'), 'made in the storm');
    });
    expect(store.index.versions.latestVersion('fresh/first.txt')!.hash).toBe(sha256('made in the storm'));
    const seen = groups.length;
    writeFileSync(join(root, 'fresh/later.txt'), 'after the storm');
    writeFileSync(join(root, 'src/part0/f0.txt'), 'after the storm too');
    await until(() => groups.slice(seen).some((g) => g.changed.includes('src/part0/f0.txt')));
    await engine.unwatch(projectId);
    // Heard by the folder's own watch, with the edit beside it, not found by another rescan.
    const after = groups.slice(seen).filter((g) => g.changed.length > 0);
    expect(after.flatMap((g) => g.changed).sort()).toEqual(['fresh/later.txt', 'src/part0/f0.txt']);
    expect(after.every((g) => !g.reconciled)).toBe(true);
    expect(counter('watch.relists')).toBe(1);
  });
});
