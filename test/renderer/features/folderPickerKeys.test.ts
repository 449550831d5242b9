import { describe, expect, it } from 'vitest';
import type { FolderListing } from '../../../shared/contract.js';
import { activeAfter, childPath, pickerMove } from '../../../renderer/features/start/folderPickerKeys.js';

// The browser's folder picker by keyboard: arrows move, Enter enters, Backspace and Alt+Up go up.

const listing: FolderListing = { path: '/home/a/projects', parent: '/home/a', root: '/home/a', folders: ['notes', 'site', 'tools'], truncated: false };
const top: FolderListing = { ...listing, path: '/home/a', parent: null, folders: ['projects'] };
const key = (k: string, altKey = false) => ({ key: k, altKey });

describe('the folder picker keys', () => {
  it('move the active folder and stop at the ends', () => {
    expect(pickerMove(key('ArrowDown'), listing, 0)).toEqual({ kind: 'active', index: 1 });
    expect(pickerMove(key('ArrowDown'), listing, 2)).toEqual({ kind: 'active', index: 2 });
    expect(pickerMove(key('ArrowUp'), listing, 0)).toEqual({ kind: 'active', index: 0 });
    expect(pickerMove(key('End'), listing, 0)).toEqual({ kind: 'active', index: 2 });
    expect(pickerMove(key('Home'), listing, 2)).toEqual({ kind: 'active', index: 0 });
  });

  it('enter the active folder with Enter, go up with Backspace or Alt+Up, never above the top', () => {
    expect(pickerMove(key('Enter'), listing, 1)).toEqual({ kind: 'enter', path: '/home/a/projects/site' });
    expect(pickerMove(key('Backspace'), listing, 1)).toEqual({ kind: 'enter', path: '/home/a' });
    expect(pickerMove(key('ArrowUp', true), listing, 1)).toEqual({ kind: 'enter', path: '/home/a' });
    expect(pickerMove(key('Backspace'), top, 0)).toBeNull();
    expect(pickerMove(key('Enter'), { ...listing, folders: [] }, 0)).toBeNull();
  });

  it('leave other keys alone', () => {
    for (const k of ['a', 'Escape', 'Tab', ' ', 'ArrowLeft']) expect(pickerMove(key(k), listing, 1)).toBeNull();
  });

  it('come back up onto the folder just left', () => {
    expect(activeAfter(listing, '/home/a/projects/tools')).toBe(2);
    expect(activeAfter(listing, null)).toBe(0);
    expect(childPath('C:\\Users\\a', 'site')).toBe('C:\\Users\\a\\site');
    expect(childPath('/', 'home')).toBe('/home');
  });
});
