import { PROJECT_TABS } from './projectTabs.js';

// Every keyboard shortcut of the window, in one list: the "Keyboard shortcuts" sheet (?) shows it
// and the tooltips of the buttons quote it, so the two never disagree; the tabs' rows come from the tab list itself. `mod` keys take Ctrl (⌘ on a Mac).

export interface Shortcut {
  keys: string;
  /** Held with Ctrl (⌘ on a Mac). */
  mod?: boolean;
  what: string;
  /** Where it works. */
  where: 'Anywhere' | 'Files' | 'Timeline' | 'Diff' | 'Lists' | 'Time strip' | 'Folder picker';
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: '?', what: 'Show these keyboard shortcuts', where: 'Anywhere' },
  { keys: 'O', mod: true, what: 'Open a folder', where: 'Anywhere' },
  { keys: 'F', mod: true, what: 'Find a file by name', where: 'Anywhere' },
  { keys: 'Shift+F', mod: true, what: 'Search every version', where: 'Anywhere' },
  ...PROJECT_TABS.map((tab): Shortcut => ({ keys: tab.key, mod: true, what: `Show the ${tab.label} tab`, where: 'Anywhere' })),
  { keys: 'B', mod: true, what: 'Show or hide the project list', where: 'Anywhere' },
  { keys: 'Z', mod: true, what: 'Undo the last restore (while its message shows)', where: 'Anywhere' },
  { keys: '↑ ↓ Home End', what: 'Move in a list of files, versions or snapshots; in the compare boxes, move among them', where: 'Lists' },
  { keys: 'Space', what: 'Pick a version to compare (in the compare boxes)', where: 'Lists' },
  { keys: 'R', what: 'Restore the selected version', where: 'Files' },
  { keys: 'P', what: 'Pin or unpin the selected version', where: 'Files' },
  { keys: 'C', what: 'Compare the selected version with the current file, or stop comparing', where: 'Files' },
  { keys: 'Shift+H', mod: true, what: "History for selection: the versions that changed the lines selected in a version's text", where: 'Files' },
  { keys: 'R', what: 'Restore the project to the selected snapshot', where: 'Timeline' },
  { keys: 'P', what: 'Pin or unpin the selected snapshot', where: 'Timeline' },
  {
    keys: '↑ ↓ PgUp PgDn Home End',
    what: 'Move along the strip beside the Timeline or the versions by an hour or day that recorded something',
    where: 'Time strip',
  },
  { keys: 'Enter', what: 'Jump the list to the hour or day chosen on the strip (a click or a drag jumps too)', where: 'Time strip' },
  { keys: 'F7', what: 'Next change', where: 'Diff' },
  { keys: 'Shift+F7', what: 'Previous change', where: 'Diff' },
  { keys: 'Enter', what: 'Go into the selected folder (Open folder… in a browser)', where: 'Folder picker' },
  { keys: 'Backspace, Alt+↑', what: 'Go to the folder above', where: 'Folder picker' },
  { keys: 'Escape', what: 'Close a dialog or this sheet', where: 'Anywhere' },
];
