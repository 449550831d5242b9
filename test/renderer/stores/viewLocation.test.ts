import { describe, expect, it } from 'vitest';
import { PROJECT_VIEWS } from '../../../renderer/stores/projectsSlice.js';
import { locationHash, readLocation } from '../../../renderer/features/viewLocation.js';

// The page address keeps the open project and tab across a reload: every tab of the project
// screen, the search tab included, must come back as itself, and an unknown tab as Files.

describe('the view in the page address', () => {
  it.each(PROJECT_VIEWS.map((view) => [view]))('%s survives a round trip through the address', (view) => {
    const hash = locationHash({ projectId: 'p1', view });
    expect(readLocation(hash)).toEqual({ projectId: 'p1', view });
  });

  it('an unknown view reads as files; no project, no address', () => {
    expect(readLocation('#project=p1&view=nonsense')).toEqual({ projectId: 'p1', view: 'files' });
    expect(locationHash({ projectId: null, view: 'search' })).toBe('');
  });
});
