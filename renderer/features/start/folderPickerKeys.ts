import type { FolderListing } from '../../../shared/contract.js';

// What a key does in the folder picker's list (the browser's "Open folder…"), as a file manager
// has it: arrows, Home and End move the active folder; Enter enters it; Backspace or Alt+Up goes to
// the folder above (none above the top of what may be browsed). Escape is the dialog's (it closes).

export type PickerMove = { kind: 'active'; index: number } | { kind: 'enter'; path: string } | null;

export interface PickerKey {
  key: string;
  altKey: boolean;
}

export function pickerMove(event: PickerKey, listing: FolderListing, active: number): PickerMove {
  const last = listing.folders.length - 1;
  const up = event.key === 'Backspace' || (event.altKey && event.key === 'ArrowUp');
  if (up) return listing.parent === null ? null : { kind: 'enter', path: listing.parent };
  if (event.key === 'Enter') {
    const name = listing.folders[active];
    return name === undefined ? null : { kind: 'enter', path: childPath(listing.path, name) };
  }
  if (last < 0) return null;
  const next = event.key === 'ArrowDown' ? active + 1 : event.key === 'ArrowUp' ? active - 1 : event.key === 'Home' ? 0 : event.key === 'End' ? last : null;
  if (next === null) return null;
  return { kind: 'active', index: Math.max(0, Math.min(last, next)) };
}

/** A child folder's path, with the separator the listed path uses ('\' on Windows). */
export function childPath(folder: string, name: string): string {
  const sep = folder.includes('\\') && !folder.includes('/') ? '\\' : '/';
  return folder.endsWith(sep) ? `${folder}${name}` : `${folder}${sep}${name}`;
}

/** After going up: the folder just left is the active one, so Enter goes straight back. */
export function activeAfter(listing: FolderListing, cameFrom: string | null): number {
  if (cameFrom === null) return 0;
  const index = listing.folders.findIndex((name) => childPath(listing.path, name) === cameFrom);
  return Math.max(0, index);
}
