import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordPaths } from '../../../electron/history/versions/recordPaths.js';
import { projectWithBaseline } from './versionsHelpers.js';

// A long history is read a page at a time: the newest versions first, then each older page from
// the oldest one shown, until the baseline; the pages together are the whole list.

describe('versions a page at a time', () => {
  it('reads the newest page, then older pages down to the baseline, adding up to every version', async () => {
    const { engine, root, projectId, store } = await projectWithBaseline({ 'hot.txt': 'version 0\n', 'other.txt': 'x' });
    for (let i = 1; i < 25; i++) {
      writeFileSync(join(root, 'hot.txt'), `version ${i}\n`);
      await recordPaths(store, ['hot.txt'], { kind: 'change', label: null });
    }
    const all = engine.versions(projectId, 'hot.txt');
    expect(all).toHaveLength(25);

    const pages: number[][] = [];
    let before: number | undefined;
    for (;;) {
      const page = engine.versions(projectId, 'hot.txt', { limit: 10, before });
      if (page.length === 0) break;
      pages.push(page.map((v) => v.versionId));
      before = page[0]!.versionId; // oldest first: the first is the oldest of this page
    }
    expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
    expect(pages.reverse().flat()).toEqual(all.map((v) => v.versionId));
    expect(engine.versions(projectId, 'hot.txt', { limit: 3 }).map((v) => v.versionId)).toEqual(all.slice(-3).map((v) => v.versionId));

    // A cursor that is not a version of this file is refused, not read as another file's place.
    const otherVersion = engine.versions(projectId, 'other.txt')[0]!.versionId;
    expect(() => engine.versions(projectId, 'hot.txt', { limit: 5, before: otherVersion })).toThrow(expect.objectContaining({ code: 'VERSION_NOT_FOUND' }));
  });
});
