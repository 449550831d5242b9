import { describe, expect, it } from 'vitest';
import { counter } from '../../../electron/history/trace.js';
import { SLOW_PATTERN, slowProject } from '../../helpers/slowSearch.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { openInViewer, startViewer } from './viewerHarness.js';

// The search slice against the real engine: a search that a newer one replaces is ended in the
// history process (its thread terminated, counted as search.cancelled), and the newer one's
// answer is shown.

describe('the search slice', () => {
  it('ends the search a newer one replaces, and shows the newer answer', async () => {
    const viewer = await startViewer();
    expect(await viewer.app.getState().openFolder(slowProject())).toBe(true);
    const started = counter('search.threads');
    const cancelled = counter('search.cancelled');
    viewer.app.setState({ searchQuery: SLOW_PATTERN, searchRegex: true });
    const slow = viewer.app.getState().runSearch();
    while (counter('search.threads') === started) await new Promise((resolve) => setImmediate(resolve));
    viewer.app.setState({ searchQuery: '2', searchRegex: false });
    await viewer.app.getState().runSearch();
    await slow;
    expect(counter('search.cancelled') - cancelled).toBe(1);
    const state = viewer.app.getState();
    expect(state.searchStatus).toBe('ready');
    expect(state.searched).toEqual({ query: '2', regex: false, caseSensitive: false });
    expect(state.searchResult!.results.map((hit) => hit.path)).toEqual(['slow/f2.txt']);
    expect(viewer.calls.filter((name) => name === 'cancel')).toHaveLength(1);
  });
});

describe('clearing the search box', () => {
  it('takes the results of the old query away, so the Search tab does not show them', async () => {
    const viewer = await startViewer();
    const root = tempDir();
    writeTree(root, { 'a.txt': 'needle\n' });
    await openInViewer(viewer, root);
    viewer.app.getState().setSearchQuery('needle');
    await viewer.app.getState().runSearch();
    expect(viewer.app.getState().searchResult!.results.map((hit) => hit.path)).toEqual(['a.txt']);
    viewer.app.getState().setSearchQuery('');
    const state = viewer.app.getState();
    expect([state.searchResult, state.searched, state.searchStatus]).toEqual([null, null, 'idle']);
  });
});
