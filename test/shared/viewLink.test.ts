import { describe, expect, it } from 'vitest';
import { lineSpan, readLinkedFile, viewLink } from '../../shared/viewLink.js';

// The viewer's deep link as `hindsight view` writes it and the viewer reads it back.

describe('viewLink', () => {
  it('writes and reads back a project, a path and a line', () => {
    const hash = viewLink({ projectId: 'p1', path: 'src/a b&c#.ts', line: 7 });
    expect(hash).toBe('#project=p1&path=src%2Fa%20b%26c%23.ts&line=7');
    expect(new URLSearchParams(hash.slice(1)).get('path')).toBe('src/a b&c#.ts');
    expect(readLinkedFile(hash)).toEqual({ path: 'src/a b&c#.ts', line: 7 });
    expect(viewLink({ projectId: 'p1', path: null, line: 3 })).toBe('#project=p1');
  });

  it('drops a line that is not a whole number from 1', () => {
    for (const line of ['0', '-2', '1e3', 'x', '01', '99999999999'])
      expect(readLinkedFile(`#project=p&path=a&line=${line}`)).toEqual({ path: 'a', line: null });
    expect(readLinkedFile('#project=p&line=3')).toEqual({ path: null, line: null });
  });

  it('finds a line in a text', () => {
    const text = 'one\ntwo\r\nthree';
    expect(lineSpan(text, 1)).toEqual({ from: 0, to: 3 });
    expect(lineSpan(text, 2)).toEqual({ from: 4, to: 7 });
    expect(text.slice(lineSpan(text, 3)!.from, lineSpan(text, 3)!.to)).toBe('three');
    expect(lineSpan(text, 4)).toBeNull();
  });
});
