import { afterEach, describe, expect, it } from 'vitest';
import { isAppUrl, rendererUrl } from '../../electron/main/rendererLocation.js';

// What counts as the app's own page for IPC sender checks: the built file (any query or hash), or
// the dev server's origin; never another file, site or scheme.

describe('isAppUrl', () => {
  afterEach(() => {
    delete process.env.ELECTRON_RENDERER_URL;
  });

  it('accepts only the built index.html when loaded from a file', () => {
    const own = rendererUrl();
    expect(own).toMatch(/^file:\/\/.*\/renderer\/index\.html$/);
    expect(isAppUrl(own)).toBe(true);
    expect(isAppUrl(`${own}?project=1#files`)).toBe(true);
    expect(isAppUrl(own.replace('index.html', 'other.html'))).toBe(false);
    expect(isAppUrl('file:///etc/passwd')).toBe(false);
    expect(isAppUrl('https://example.com/')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });

  it('accepts the dev server origin only while developing', () => {
    process.env.ELECTRON_RENDERER_URL = 'http://localhost:5173';
    expect(isAppUrl('http://localhost:5173/')).toBe(true);
    expect(isAppUrl('http://localhost:5174/')).toBe(false);
    expect(isAppUrl('http://127.0.0.1:5173/')).toBe(false);
    expect(isAppUrl('file:///anything/renderer/index.html')).toBe(false);
  });
});
