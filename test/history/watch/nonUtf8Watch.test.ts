import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { ChangeGroupResult } from '../../../electron/history/versions/changeGroup.js';
import { displayPath } from '../../../shared/fileNameBytes.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';
import { until } from '../../helpers/until.js';

// The live watcher watches folders by their bytes; an event naming a file whose name is not UTF-8
// asks for a reconciling rescan, which lists folders as bytes and records the exact name.

type Group = ChangeGroupResult & { reconciled: boolean };

const bytePath = (root: string, ...parts: (string | number[])[]) => Buffer.concat([Buffer.from(`${root}/`), ...parts.map((p) => Buffer.from(p as never))]);

describe('the live watcher and names that are not UTF-8', () => {
  it('records a file created with such a name, and a file written in a folder with one, under their exact bytes', async () => {
    const { engine, root, store, projectId } = await projectWithBaseline({ 'a.txt': 'a' });
    const errors: unknown[] = [];
    engine.events.on((event) => {
      if (event.event === 'error') errors.push(event.payload);
    });
    const groups: Group[] = [];
    await engine.watch(projectId, { quietMs: 100, maxGroupMs: 1000, onGroup: (g) => groups.push(g) });
    await until(() => groups.length >= 1);
    const shown = () =>
      store.index.files
        .filesAt()
        .map((f) => displayPath(f.path))
        .sort();

    writeFileSync(bytePath(root, [0x66, 0xff, 0x2e, 0x74]), 'new');
    await until(() => shown().includes('f\\xFF.t'));
    mkdirSync(bytePath(root, [0x64, 0xe9]));
    writeFileSync(bytePath(root, [0x64, 0xe9], '/inner.txt'), 'inner');
    await until(() => shown().includes('d\\xE9/inner.txt'));
    expect(shown()).toEqual(['a.txt', 'd\\xE9/inner.txt', 'f\\xFF.t']);
    // Inside such a folder an edit is seen, deeper ones too.
    const inner = store.index.files.filesAt().find((f) => displayPath(f.path) === 'd\\xE9/inner.txt')!.path;
    writeFileSync(bytePath(root, [0x64, 0xe9], '/inner.txt'), 'inner, edited');
    await until(() => store.index.versions.versionsOf(inner).length === 2);
    mkdirSync(bytePath(root, [0x64, 0xe9], '/sub'));
    writeFileSync(bytePath(root, [0x64, 0xe9], '/sub/deeper.txt'), 'deeper');
    await until(() => shown().includes('d\\xE9/sub/deeper.txt'));
    const deeper = store.index.files.filesAt().find((f) => displayPath(f.path) === 'd\\xE9/sub/deeper.txt')!.path;
    writeFileSync(bytePath(root, [0x64, 0xe9], '/sub/deeper.txt'), 'deeper, edited');
    await until(() => store.index.versions.versionsOf(deeper).length === 2);

    // No path in its lossy form (U+FFFD) was ever recorded.
    expect(store.index.files.filesAt().some((f) => f.path.includes('\uFFFD'))).toBe(false);
    await engine.unwatch(projectId);
    expect(errors).toEqual([]);
  });

  it('watches inside such a folder that was there before the watch began', async () => {
    const { engine, root, store, projectId } = await projectWithBaseline({ 'a.txt': 'a' });
    mkdirSync(bytePath(root, [0x64, 0xe9]));
    writeFileSync(bytePath(root, [0x64, 0xe9], '/inner.txt'), 'inner');
    await engine.rescan(projectId);
    const inner = store.index.files.filesAt().find((f) => displayPath(f.path) === 'd\\xE9/inner.txt')!.path;
    const groups: Group[] = [];
    await engine.watch(projectId, { quietMs: 100, maxGroupMs: 1000, onGroup: (g) => groups.push(g) });
    await until(() => groups.length >= 1);
    writeFileSync(bytePath(root, [0x64, 0xe9], '/inner.txt'), 'inner, edited');
    await until(() => store.index.versions.versionsOf(inner).length === 2);
    await engine.unwatch(projectId);
  });
});
