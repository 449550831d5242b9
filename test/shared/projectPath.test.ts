import { describe, expect, it } from 'vitest';
import { projectPathProblem } from '../../shared/projectPath.js';

// The one check of a project path: it accepts every path the walk can record on Linux and macOS
// (a name is any bytes but '/' and NUL) and still refuses what climbs out or names nothing.

describe('projectPathProblem', () => {
  it('accepts a backslash and a leading drive-like name: ordinary characters of a POSIX name', () => {
    for (const path of ['a\\b.txt', 'dir\\name/x', '\\', 'a/\\/b', 'C:drive.txt', 'c:/x', 'C:\\Windows'])
      expect([path, projectPathProblem(path)]).toEqual([path, null]);
  });

  it('refuses an empty path, NUL, an absolute path and empty, "." or ".." segments', () => {
    expect(projectPathProblem('')).toBe('empty');
    expect(projectPathProblem('a\0b')).toBe('nul');
    expect(projectPathProblem('/etc/passwd')).toBe('absolute');
    for (const path of ['../x', 'a/../../x', 'a/./b', 'a//b', 'a/', '..', '.']) expect([path, projectPathProblem(path)]).toEqual([path, 'dot-segment']);
  });

  it('under Windows rules also refuses a backslash and a drive letter', () => {
    expect(projectPathProblem('a\\b.txt', 'windows')).toBe('backslash');
    expect(projectPathProblem('C:drive.txt', 'windows')).toBe('absolute');
    expect(projectPathProblem('a/b.txt', 'windows')).toBeNull();
  });
});
