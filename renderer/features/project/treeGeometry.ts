// Every row of the file tree is one height, so which rows a scroll position shows, and how many
// a page is, is arithmetic. Only the rows in view (plus a few either side) are drawn.

export const ROW = 24;
const OVERSCAN = 8;

/** The rows to draw, [first, last), for a viewport of `height` pixels scrolled to `scrollTop`. */
export function drawnRange(scrollTop: number, height: number, count: number): { first: number; last: number } {
  const first = Math.max(0, Math.floor(scrollTop / ROW) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scrollTop + height) / ROW) + OVERSCAN);
  return { first, last };
}

/** How far PageUp and PageDown move: a viewport less one row, at least one. */
export function pageRows(height: number): number {
  return Math.max(1, Math.floor(height / ROW) - 1);
}

/** The DOM id of a drawn row, for aria-activedescendant. */
export function rowId(index: number): string {
  return `tree-row-${index}`;
}
