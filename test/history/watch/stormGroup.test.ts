import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeGroupResult } from '../../../electron/history/versions/changeGroup.js';
import { ChangeBatcher, MANY_CHANGES, MAX_GROUP_PATHS, type ChangeGroupRequest } from '../../../electron/history/watch/changeBatcher.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { sha256 } from '../../helpers/writeTree.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';
import { until } from '../../helpers/until.js';

// A checkout that rewrites thousands of files is one group whose memory stops growing: the
// batcher arms its quiet timer once per quiet stretch (not once per event) and, past its most
// paths, keeps none and has the group recorded by a rescan. Counted, never timed.

type Group = ChangeGroupResult & { reconciled: boolean };

describe('a storm of changes', () => {
  it('holds at most its most paths and arms the quiet timer once for 40,000 events', async () => {
    const groups: ChangeGroupRequest[] = [];
    const batcher = new ChangeBatcher({ quietMs: 100, maxGroupMs: 60_000 }, (g) => groups.push(g));
    resetTrace();
    let mostHeld = 0;
    for (let i = 0; i < 20_000; i++) {
      // A checkout's file is removed and written again: two events each.
      batcher.add(`src/part${i % 40}/file${i}.txt`);
      batcher.add(`src/part${i % 40}/file${i}.txt`);
      mostHeld = Math.max(mostHeld, batcher.held);
    }
    expect(mostHeld).toBeLessThanOrEqual(MAX_GROUP_PATHS + 1);
    expect(batcher.held).toBe(0);
    await until(() => groups.length === 1);
    expect(groups).toEqual([{ paths: [], doubt: [MANY_CHANGES] }]);
    // Once for the stretch, and once more for the rest of the window when the last event came after the first arming.
    expect(counter('watch.quietTimers')).toBeLessThanOrEqual(2);
    batcher.stop();
  });

  it('records a group past its most paths as one rescan that names every changed file', async () => {
    const spec: Record<string, string> = {};
    for (let i = 0; i < 30; i++) spec[`src/f${i}.txt`] = `first ${i}`;
    const { engine, root, store, projectId } = await projectWithBaseline(spec);
    const groups: Group[] = [];
    await engine.watch(projectId, { quietMs: 300, maxGroupMs: 60_000, maxPaths: 10, onGroup: (g) => groups.push(g) });
    await until(() => groups.length >= 1); // the watch's own reconciling rescan
    const before = groups.length;
    for (let i = 0; i < 30; i++) writeFileSync(join(root, `src/f${i}.txt`), `second ${i}`);
    await until(() => groups.slice(before).some((g) => g.changed.length > 0));
    await engine.unwatch(projectId);
    const recorded = groups.slice(before).filter((g) => g.changed.length > 0);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.reconciled).toBe(true);
    expect(recorded[0]!.changed).toHaveLength(30);
    for (let i = 0; i < 30; i++) expect(store.index.versions.latestVersion(`src/f${i}.txt`)!.hash).toBe(sha256(`second ${i}`));
  });
});
