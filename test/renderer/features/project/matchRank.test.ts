import { describe, expect, it } from 'vitest';
import { bestMatch, matchRank } from '../../../../renderer/features/project/matchRank.js';
import { buildTree, visibleRows } from '../../../../renderer/features/project/treeModel.js';
import type { FileEntry } from '../../../../shared/contract.js';

// Where Down or Enter in the file filter goes: the exact name, then a name starting with the
// text, then the first other match, over the rows the filtered tree really shows.

const PATHS = ['a/debughelpers.py', 'a/helpers_test.py', 'b/old_helpers.py', 'c/helpers.py', 'c/helpers.pyc', 'HELPERS.md'];

/** The path Enter opens after typing `filter`: the best of the file rows the tree shows for it, in their order. */
function enterOpens(filter: string): string | undefined {
  const files = PATHS.map((path) => ({ path }) as FileEntry);
  const rows = visibleRows(buildTree(files, [], new Set(), false), new Set(), filter);
  const paths = rows.map((r) => (r.node.folder ? null : r.node.path));
  const at = bestMatch(filter, paths);
  return at < 0 ? undefined : paths[at]!;
}

describe('the file filter ranking', () => {
  it('opens helpers.py for "helpers.py", not debughelpers.py listed above it', () => {
    expect(enterOpens('helpers.py')).toBe('c/helpers.py');
    expect(enterOpens('HELPERS.PY')).toBe('c/helpers.py');
  });

  it('ranks the exact name, then names starting with the text, then the rest in the order shown', () => {
    expect(matchRank('helpers.py', 'c/helpers.py')).toBe(0);
    expect(matchRank('helpers.py', 'c/helpers.pyc')).toBe(1);
    expect(matchRank('helpers.py', 'a/debughelpers.py')).toBe(2);
    expect(enterOpens('helpers')).toBe('a/helpers_test.py');
    expect(enterOpens('helpers.md')).toBe('HELPERS.md');
    expect(enterOpens('elpers')).toBe('a/debughelpers.py');
    expect(enterOpens('*.pyc')).toBe('c/helpers.pyc');
  });

  it('compares the end of the path when the text has a slash, and chooses no folder', () => {
    expect(matchRank('c/helpers.py', 'c/helpers.py')).toBe(0);
    expect(matchRank('c/helpers', 'c/helpers.py')).toBe(1);
    expect(enterOpens('c/help')).toBe('c/helpers.py');
    expect(bestMatch('c', ['c', null])).toBe(0);
    expect(bestMatch('c', [null, null])).toBe(-1);
  });
});

describe('the file filter ranking by the project folder’s name rules', () => {
  const EXACT = { foldsCase: false, foldsNormalization: false };
  const FOLDS = { foldsCase: true, foldsNormalization: true };

  it('where names are exact, opens the name typed in its own case before another spelling listed above it', () => {
    expect(matchRank('readme.md', 'docs/Readme.md', EXACT)).toBe(1);
    expect(matchRank('readme.md', 'readme.md', EXACT)).toBe(0);
    expect(bestMatch('readme.md', ['docs/Readme.md', 'readme.md'], EXACT)).toBe(1);
  });

  it('where names fold, a name typed in another case or normalization is that name', () => {
    expect(matchRank('README.MD', 'docs/Readme.md', FOLDS)).toBe(0);
    expect(matchRank('cafe\u0301.txt', 'caf\u00e9.txt', FOLDS)).toBe(0);
    expect(matchRank('cafe\u0301.txt', 'caf\u00e9.txt', EXACT)).toBe(1);
    expect(bestMatch('readme.md', ['docs/Readme.md', 'readme.md'], FOLDS)).toBe(0);
  });
});
