import { describe, expect, it } from 'vitest';
import { drawnRange, pageRows, ROW } from '../../../../renderer/features/project/treeGeometry.js';
import { moveTarget, parentOf } from '../../../../renderer/features/project/treeKeys.js';

// The file tree's keyboard as a file manager has it, and the rows a scroll position draws.

describe('the file tree keys', () => {
  it('move the active row by one, by a page, and to either end', () => {
    const page = pageRows(10 * ROW); // ten rows in view: a page moves nine
    expect(page).toBe(9);
    expect(moveTarget('ArrowDown', 4, 100, page)).toBe(5);
    expect(moveTarget('ArrowUp', 4, 100, page)).toBe(3);
    expect(moveTarget('PageDown', 4, 100, page)).toBe(13);
    expect(moveTarget('PageUp', 4, 100, page)).toBe(-5); // clamped to the first row by the tree
    expect(moveTarget('Home', 4, 100, page)).toBe(0);
    expect(moveTarget('End', 4, 100, page)).toBe(99);
  });

  it('start from the top when no row is active yet', () => {
    expect(moveTarget('ArrowDown', -1, 100, 9)).toBe(0);
    expect(moveTarget('ArrowUp', -1, 100, 9)).toBe(0);
  });

  it('leave the other keys to the folder and Enter handling', () => {
    for (const key of ['ArrowRight', 'ArrowLeft', 'Enter', ' ', 'a']) expect(moveTarget(key, 4, 100, 9)).toBeUndefined();
  });

  it('step out of a row to the folder holding it, none at the top', () => {
    expect(parentOf('src/lib/list.c')).toBe('src/lib');
    expect(parentOf('README.md')).toBeNull();
  });

  it('page by at least one row in a tree shorter than two rows', () => {
    expect(pageRows(ROW)).toBe(1);
  });
});

describe('the rows drawn', () => {
  it('are the rows in view and eight either side, within the tree', () => {
    expect(drawnRange(0, 10 * ROW, 1000)).toEqual({ first: 0, last: 18 });
    expect(drawnRange(100 * ROW, 10 * ROW, 1000)).toEqual({ first: 92, last: 118 });
    expect(drawnRange(995 * ROW, 10 * ROW, 1000)).toEqual({ first: 987, last: 1000 });
  });
});
