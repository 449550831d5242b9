// The order the file tree shows a folder's children in: folders first, then names as a person
// reads them (numbers by value, case folded), ties broken by the exact bytes so the order is total.
// One home for it: the history process sorts a folder's level this way and the viewer its tree.

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export function compareNames(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

export function compareTreeEntries(a: { name: string; folder: boolean }, b: { name: string; folder: boolean }): number {
  return Number(b.folder) - Number(a.folder) || compareNames(a.name, b.name);
}
