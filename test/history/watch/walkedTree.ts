import { until } from '../../helpers/until.js';

// What the tests of a watch started from a rescan's walk share: a small tree of nested folders,
// and waits on the clock so that nothing just written lies in a racy window of 0 ms.

export { until };

export const WALKED_TREE: Record<string, string> = { 'top.txt': 't', 'a/one.txt': '1', 'a/b/two.txt': '2', 'c/three.txt': '3', 'c/d/e/four.txt': '4' };

/** Lets the clock pass the ctimes just written. */
export async function pastNow(): Promise<void> {
  const now = Date.now();
  await until(() => Date.now() > now + 5);
}
