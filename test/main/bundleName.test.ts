import { describe, expect, it } from 'vitest';
import { suggestedBundleName } from '../../electron/main/bundleName.js';

// The name a page suggests for the export's save dialog is a plain file name or refused.

describe('suggestedBundleName', () => {
  it('takes a plain name and refuses paths, empties, dots, NUL, non-strings and long names', () => {
    expect(suggestedBundleName('site-history.hsb')).toBe('site-history.hsb');
    expect(suggestedBundleName('名前 history.hsb')).toBe('名前 history.hsb');
    for (const bad of ['', '.', '..', '../x.hsb', '/etc/passwd', 'a\\b.hsb', 'a\0b', 'x'.repeat(201), 42, null, undefined, { name: 'a' }]) {
      expect(suggestedBundleName(bad), String(bad)).toBeNull();
    }
  });
});
