// What the file filter asks of the list below it (the tree, or the deleted files): on Down or
// Enter, make the first match the active, selected row and move the focus there.

export interface FirstMatch {
  /** Returns false when there is no row to go to. */
  focus(): boolean;
}
