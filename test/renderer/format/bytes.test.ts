import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../../renderer/format/bytes.js';
import { formatDuration, formatRelative } from '../../../renderer/format/time.js';
import { viewKind } from '../../../renderer/format/fileKind.js';

describe('formatting for people', () => {
  it('sizes', () => {
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(1023)).toBe('1023 bytes');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(250 * 1024 * 1024)).toBe('250 MB');
    // Never four digits before the unit: 1000 KB is shown as the 1.0 MB it nearly is.
    expect(formatBytes(1000 * 1024)).toBe('1.0 MB');
    expect(formatBytes(1023 * 1024)).toBe('1.0 MB');
    expect(formatBytes(999 * 1024)).toBe('999 KB');
  });
  it('times', () => {
    const now = Date.UTC(2026, 0, 10, 12);
    expect(formatRelative(now - 2_000, now)).toBe('just now');
    expect(formatRelative(now - 3 * 60_000, now)).toBe('3 minutes ago');
    expect(formatRelative(now - 26 * 3_600_000, now)).toBe('yesterday');
    expect(formatDuration(75)).toBe('1 min 15 s');
  });
  it('how a file is shown', () => {
    expect(viewKind('a/logo.PNG', true)).toBe('image');
    expect(viewKind('icon.svg', false)).toBe('image');
    expect(viewKind('data.bin', true)).toBe('binary');
    expect(viewKind('main.ts', false)).toBe('text');
  });
});
