import { describe, expect, it } from 'vitest';
import { projectBadges } from '../../../renderer/features/projectBadges.js';

// The folded project list shows one badge per project: two projects never wear the same letters
// when their names tell them apart.

describe('project badges', () => {
  it('uses the initials of the words of a name', () => {
    expect(projectBadges(['my-app', 'hindsight', 'WebServer', 'données_2024'])).toEqual(['MA', 'H', 'WS', 'D2']);
  });

  it('tells apart names that share their initials by their last letter or digit', () => {
    expect(projectBadges(['hindsight-e2e-project-jgh4xO', 'hindsight-e2e-project-QfeNjG', 'notes'])).toEqual(['HO', 'HG', 'N']);
    expect(new Set(projectBadges(['site-2024', 'site-2025'])).size).toBe(2);
  });
});
