import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProjectStore } from '../../../electron/history/project/projectStore.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { git, makeRepo, tempDir } from './gitFixture.js';

// Every snapshot gets its branch and head from the store's git context, whoever writes it, and
// that costs no git process: a few stats, and a read of git's files only when they changed.

describe("a store's git context", () => {
  it('fills branch and head on snapshots whose writer gave none, without starting git', () => {
    const root = makeRepo({ 'a.txt': 'a' });
    const store = ProjectStore.open(root, tempDir('data'));
    try {
      resetTrace();
      const ids = Array.from({ length: 50 }, () => store.index.commitSnapshot({ snapshot: { kind: 'change' }, versions: [], blobs: [] }));
      const head = git(root, 'rev-parse', 'HEAD');
      for (const id of ids) expect(store.index.snapshotReads.snapshot(id)).toMatchObject({ branch: 'main', head });
      expect(counter('git.spawns')).toBe(0);
      expect(counter('git.headReads')).toBe(1);

      // A writer that says what it was taken on is left alone.
      const own = store.index.commitSnapshot({ snapshot: { kind: 'checkpoint', branch: 'old', head: null }, versions: [], blobs: [] });
      expect(store.index.snapshotReads.snapshot(own)).toMatchObject({ branch: 'old', head: null });

      writeFileSync(join(root, 'a.txt'), 'b');
      git(root, 'commit', '-qam', 'b');
      const after = store.index.commitSnapshot({ snapshot: { kind: 'change' }, versions: [], blobs: [] });
      expect(store.index.snapshotReads.snapshot(after)?.head).toBe(git(root, 'rev-parse', 'HEAD'));
      expect(store.git.state()).toEqual({ repository: true, branch: 'main', head: git(root, 'rev-parse', 'HEAD') });
    } finally {
      store.close();
    }
  });

  it('leaves them null in a plain folder, and notices a git init', () => {
    const root = tempDir('plain');
    const store = ProjectStore.open(root, tempDir('data'));
    try {
      const id = store.index.commitSnapshot({ snapshot: { kind: 'change' }, versions: [], blobs: [] });
      expect(store.index.snapshotReads.snapshot(id)).toMatchObject({ branch: null, head: null });
      expect(store.git.state()).toBe(false);
      git(root, 'init', '-q', '-b', 'main');
      expect(store.git.state()).toEqual({ repository: true, branch: 'main', head: null });
    } finally {
      store.close();
    }
  });
});
