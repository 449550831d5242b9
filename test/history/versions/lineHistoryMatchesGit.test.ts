import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordPaths } from '../../../electron/history/versions/recordPaths.js';
import { seededRandom } from '../../bench/fixtures/seededRandom.js';
import { sha256 } from '../../helpers/writeTree.js';
import { git, makeRepo } from '../git/gitFixture.js';
import { projectWithBaseline } from './versionsHelpers.js';

// A file's history for a selection against its reference, `git log -L A,B:PATH`: one file edited
// commit after commit by seeded random edits (lines added, removed and replaced above, inside,
// across and below any range), each state committed to a real git repository and recorded as a
// Hindsight version; for random ranges of the newest state, the versions listed are exactly the
// commits git lists (matched by content: every state differs). Lines are unique, so that where a
// change sits is never a choice a diff algorithm makes. Where lines repeat, the two can differ by
// design: `git log -L` diffs with Myers whatever --diff-algorithm says (git 2.39), Hindsight with the
// histogram diff its viewer shows. Seen when a third of the added lines were `}` or blank: "line
// 119" moved from line 2 to line 8 across `}` lines; Myers pairs a `}` of the range with an old
// one and goes on to older commits, the histogram diff (and `git diff --histogram`) keeps "line
// 119" in place and calls the range's lines added there, so the list ends at that version.

const COMMITS = 60;

function editedStates(seed: number): string[] {
  const random = seededRandom(seed);
  const pick = (n: number) => Math.floor(random() * n);
  let next = 0;
  const fresh = (count: number) => Array.from({ length: count }, () => `line ${next++}\n`);
  let lines = fresh(30);
  const states = [lines.join('')];
  for (let c = 0; c < COMMITS; c++) {
    for (let edits = 1 + pick(3); edits > 0; edits--) {
      const at = pick(lines.length + 1);
      const count = 1 + pick(4);
      const kind = lines.length < 12 ? 0 : lines.length > 70 ? 1 : pick(3);
      const removed = kind === 0 ? 0 : Math.min(count, lines.length - at);
      lines = [...lines.slice(0, at), ...(kind === 1 ? [] : fresh(count)), ...lines.slice(at + removed)];
    }
    const text = lines.join('');
    if (text !== states.at(-1)) states.push(text);
  }
  return states;
}

describe('history for a selection matches git log -L', () => {
  it('lists, for random ranges of the newest version, the commits git lists for them', async () => {
    const states = editedStates(44);
    const repo = makeRepo({ 'f.txt': states[0]! });
    const project = await projectWithBaseline({ 'f.txt': states[0]! });
    const commitOf = new Map([[sha256(states[0]!), git(repo, 'rev-parse', 'HEAD')]]);
    for (const text of states.slice(1)) {
      writeFileSync(join(repo, 'f.txt'), text);
      git(repo, 'commit', '-q', '-am', 'edit');
      commitOf.set(sha256(text), git(repo, 'rev-parse', 'HEAD'));
      writeFileSync(join(project.root, 'f.txt'), text);
      await recordPaths(project.store, ['f.txt'], { kind: 'change', label: null });
    }
    expect(commitOf.size).toBe(states.length);

    const random = seededRandom(4444);
    const lineCount = states.at(-1)!.split('\n').length - 1;
    const ranges: [number, number][] = [
      [1, lineCount],
      [1, 1],
      [lineCount, lineCount],
    ];
    while (ranges.length < 60) {
      const from = 1 + Math.floor(random() * lineCount);
      ranges.push([from, Math.min(lineCount, from + Math.floor(random() * 10))]);
    }
    const differences: string[] = [];
    let longLists = 0;
    for (const [from, to] of ranges) {
      const expected = git(repo, 'log', `-L${from},${to}:f.txt`, '--format=%H', '-s').split('\n').filter(Boolean).reverse();
      const found = await project.engine.lineHistory(project.projectId, 'f.txt', { from, to });
      const listed = found.map((v) => commitOf.get(v.hash!));
      if (JSON.stringify(listed) !== JSON.stringify(expected)) differences.push(`${from},${to}: git ${expected.length}, hindsight ${listed.length}`);
      if (expected.length >= 4) longLists++;
    }
    expect(differences).toEqual([]);
    // The ranges were followed through many versions, not only found in the newest.
    expect(longLists).toBeGreaterThan(20);
  });
});
