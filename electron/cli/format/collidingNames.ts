import { displayPath, visibleText } from '../../../shared/fileNameBytes.js';

// The names of a history brought into a folder that folds case or normalization and would be one
// file there: one line for the finding and the way out, then one line per group.

export function describeCollidingNames(groups: readonly (readonly string[])[], root: string): string {
  if (groups.length === 0) return '';
  const lines = groups.map((group) => `  ${group.map((path) => visibleText(displayPath(path))).join(' and ')}\n`);
  return (
    `${groups.length === 1 ? 'One group' : `${groups.length} groups`} of names in this history would be one file in ${visibleText(root)}, ` +
    'which does not tell them apart; every version is kept, but restore them --into a folder on a case-sensitive file system, ' +
    'or one of each group on its own (restore FOLDER PATH --version ID):\n' +
    lines.join('')
  );
}
