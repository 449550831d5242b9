import { afterEach, describe, expect, it } from 'vitest';
import { isAppUrl, rendererUrl } from '../../electron/main/rendererLocation.js';

// What counts as the app's own page for IPC sender checks: app://hindsight/ (any path, query or
// hash), or the dev server's origin while developing; never a file, another site or scheme.

describe('isAppUrl', () => {
  afterEach(() => {
    delete process.env.ELECTRON_RENDERER_URL;
  });

  it('accepts only app://hindsight/ in a build', () => {
    expect(rendererUrl()).toBe('app://hindsight/index.html');
    expect(isAppUrl('app://hindsight/index.html?project=1#files')).toBe(true);
    expect(isAppUrl('app://evil/index.html')).toBe(false);
    expect(isAppUrl('file:///work/out/renderer/index.html')).toBe(false);
    expect(isAppUrl('https://hindsight/')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });

  it('accepts the dev server origin only while developing', () => {
    process.env.ELECTRON_RENDERER_URL = 'http://localhost:5173';
    expect(isAppUrl('http://localhost:5173/')).toBe(true);
    expect(isAppUrl('http://localhost:5174/')).toBe(false);
    expect(isAppUrl('http://127.0.0.1:5173/')).toBe(false);
    expect(isAppUrl('app://hindsight/index.html')).toBe(false);
  });
});
