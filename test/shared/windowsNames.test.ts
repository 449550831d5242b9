import { describe, expect, it } from 'vitest';
import { WINDOWS_MAX_PATH, windowsNameProblem } from '../../shared/windowsNames.js';

// Windows' name rules, as the code applies them on any machine.

describe('windowsNameProblem', () => {
  it('finds device names, reserved characters, trailing dots and spaces, and long paths', () => {
    const cases: [string, ReturnType<typeof windowsNameProblem>][] = [
      ['CON', 'reserved-name'],
      ['src/aux.txt', 'reserved-name'],
      ['Com1.log', 'reserved-name'],
      ['lpt9', 'reserved-name'],
      ['nul.', 'reserved-name'],
      ['console.txt', null],
      ['com10', null],
      ['a:b.txt', 'reserved-character'],
      ['what?.md', 'reserved-character'],
      ['tab\there', 'reserved-character'],
      ['back\\slash', 'reserved-character'],
      ['notes.', 'trailing-dot-or-space'],
      ['folder /x', 'trailing-dot-or-space'],
      ['.hidden', null],
      ['plain/name.txt', null],
    ];
    expect(cases.map(([path]) => [path, windowsNameProblem(path)])).toEqual(cases);
  });

  it('counts the folder, the separator and the closing NUL against 260 characters', () => {
    const root = 'C:\\Users\\me\\project';
    const fits = 'x'.repeat(WINDOWS_MAX_PATH - root.length - 2);
    expect(windowsNameProblem(fits, root.length)).toBeNull();
    expect(windowsNameProblem(`${fits}y`, root.length)).toBe('too-long');
  });
});
