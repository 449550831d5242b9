import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { UnreadablePath } from '../../../shared/contract.js';
import { UnreadableList } from '../../../renderer/features/errors/UnreadableBanner.js';

// The project screen's list of what the last open could not read: the open result's
// `unreadable` as the engine answers it, a short list with the count, each reason in words.

function render(unreadable: UnreadablePath[]): string {
  return renderToStaticMarkup(createElement(UnreadableList, { unreadable, onDismiss: () => undefined }));
}

describe('the list of what could not be read', () => {
  it('names each path with its reason, as a status with an accessible name and a Dismiss button', () => {
    const html = render([
      { path: 'locked', reason: 'folder cannot be listed: permission denied (EACCES)' },
      { path: 'secret.txt', reason: 'permission denied (EACCES)' },
    ]);
    expect(html).toContain('role="status"');
    expect(html).toContain('aria-label="Could not be read"');
    expect(html).toContain('2 files or folders could not be read');
    expect(html).toContain('<code>locked</code> — folder cannot be listed: permission denied (EACCES)');
    expect(html).toContain('<code>secret.txt</code> — permission denied (EACCES)');
    expect(html).toMatch(/<button[^>]*>Dismiss<\/button>/);
  });

  it('shows the first five and counts the rest', () => {
    const many = Array.from({ length: 1205 }, (_, i) => ({ path: `f${String(i).padStart(4, '0')}`, reason: 'permission denied (EACCES)' }));
    const html = render(many);
    expect(html).toContain('1,205 files or folders could not be read');
    expect(html.match(/<code>/g)).toHaveLength(5);
    expect(html).toContain('and 1,200 more');
  });
});
