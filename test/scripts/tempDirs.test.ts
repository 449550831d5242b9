import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../helpers/tempDirs.js';

// A test stops what it started (a recorder, a watch process) in onTestFinished, which vitest runs
// after afterEach: a temp folder must still be there while that teardown runs, and gone after.

describe('a temp folder made in a test', () => {
  let dir = '';
  const seenByTeardown: boolean[] = [];

  it('is still there when a teardown registered after it runs', () => {
    dir = tempDir();
    writeFileSync(join(dir, 'made'), 'by the test');
    onTestFinished(() => {
      seenByTeardown.push(existsSync(join(dir, 'made')));
      // A recorder stopping writes its last state into its data folder.
      writeFileSync(join(dir, 'late'), 'by the teardown');
    });
  });

  it('is removed once the test and its teardowns are done', () => {
    expect(seenByTeardown).toEqual([true]);
    expect(existsSync(dir)).toBe(false);
  });
});
