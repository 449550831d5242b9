import { describe, expect, it } from 'vitest';
import { servedSegments } from '../../shared/urlPath.js';

// The one check of a served URL path, used by the browser host and the app:// protocol alike.

describe('servedSegments', () => {
  it('maps plain paths to segments and the root to index.html', () => {
    expect(servedSegments('/')).toEqual(['index.html']);
    expect(servedSegments('/assets/index-1.js')).toEqual(['assets', 'index-1.js']);
    expect(servedSegments('/assets/a%20b.css')).toEqual(['assets', 'a b.css']);
  });

  it('refuses anything that could climb out or confuse a path', () => {
    for (const path of ['/../x', '/assets/..%2f..%2fx', '/%2e%2e/x', '/./x', '/a%5c..%5cb', '/a%00b', '/%E0%A4%A']) {
      expect(servedSegments(path), path).toBeNull();
    }
  });
});
