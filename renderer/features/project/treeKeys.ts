// The keys that move the file tree's active row the way a file manager does, as the index they
// move it to (clamped to the rows by the caller). Right and Left, which open and close folders,
// and Enter are in useTreeKeys.ts.

export function moveTarget(key: string, index: number, count: number, page: number): number | undefined {
  switch (key) {
    case 'ArrowDown':
      return index + 1;
    case 'ArrowUp':
      return index < 0 ? 0 : index - 1;
    case 'PageDown':
      return index + page;
    case 'PageUp':
      return index - page;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return undefined;
  }
}

/** The folder holding `path`, or null at the top. */
export function parentOf(path: string): string | null {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : null;
}
